"""The operator's inbox: pending approvals and escalations on threads that still exist.

`approvals` keeps a row per request; a row stays `pending` when its thread
was pruned or crashed past it. The inbox joins each pending row with its
thread's newest checkpoint, which also names the customer. Whether the
thread is still interrupted on that very request is checked against the
graph's state by the caller (`graphs.inbox`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import DictRow

_PENDING_ON_LIVE_THREADS = """
SELECT a.request_id, a.thread_id, a.kind, a.skill, a.risk, a.args, a.reason, a.created_at,
       coalesce(a.user_id, latest.user_id) AS customer
FROM approvals a
JOIN LATERAL (
    SELECT c.checkpoint -> 'channel_values' ->> 'user_id' AS user_id
    FROM checkpoints c
    WHERE c.thread_id = a.thread_id AND c.checkpoint_ns = ''
    ORDER BY c.checkpoint_id DESC
    LIMIT 1
) latest ON TRUE
WHERE a.status = 'pending'
ORDER BY a.created_at
"""


@dataclass(frozen=True)
class InboxItem:
    """One request an operator can answer."""

    request_id: str
    thread_id: str
    kind: str
    skill: str | None
    risk: str | None
    args: dict[str, Any]
    reason: str | None
    customer: str | None
    created_at: datetime


async def pending_requests(conn: psycopg.AsyncConnection[DictRow]) -> list[InboxItem]:
    """Pending requests whose thread still has checkpoints, oldest first."""
    cur = await conn.execute(_PENDING_ON_LIVE_THREADS)
    return [
        InboxItem(
            request_id=row["request_id"],
            thread_id=row["thread_id"],
            kind=row["kind"],
            skill=row["skill"],
            risk=row["risk"],
            args=dict(row["args"] or {}),
            reason=row["reason"],
            customer=row["customer"],
            created_at=row["created_at"],
        )
        for row in await cur.fetchall()
    ]
