"""Checkpoint retention: list threads and prune old ones through the saver.

A thread waiting on a pending approval is an open promise to an operator:
it is kept unless the caller forces it, and then its pending approvals go
with it (they could never be answered).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

import psycopg
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg.rows import DictRow

from checkpoints.errors import InvalidArgument

_AGE = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


@dataclass(frozen=True)
class ThreadSummary:
    thread_id: str
    checkpoints: int
    updated_at: datetime


@dataclass(frozen=True)
class PruneReport:
    strategy: Literal["delete", "keep_latest"]
    thread_ids: tuple[str, ...]
    checkpoints_before: int
    checkpoints_after: int
    kept_pending: tuple[str, ...] = ()
    """Old threads left alone because an approval on them is pending."""


CHECKPOINT_TABLES = ["checkpoints", "checkpoint_blobs", "checkpoint_writes"]


def parse_age(text: str) -> timedelta:
    """'7d' -> 7 days. Units: s, m, h, d, w."""
    match = _AGE.match(text)
    if not match:
        raise InvalidArgument(
            f"cannot read age {text!r}; write a number and a unit s/m/h/d/w, e.g. 7d or 12h"
        )
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


async def list_threads(conn: psycopg.AsyncConnection[DictRow]) -> list[ThreadSummary]:
    """Every thread with its checkpoint count and last update, newest first."""
    cur = await conn.execute(
        "SELECT thread_id, count(*) AS n, max(checkpoint->>'ts') AS ts"
        " FROM checkpoints WHERE checkpoint_ns = '' GROUP BY thread_id ORDER BY ts DESC"
    )
    return [
        ThreadSummary(row["thread_id"], int(row["n"]), datetime.fromisoformat(row["ts"]))
        for row in await cur.fetchall()
    ]


async def prune_threads(
    saver: AsyncPostgresSaver,
    conn: psycopg.AsyncConnection[DictRow],
    *,
    older_than: timedelta,
    keep_latest: bool,
    force: bool = False,
    now: datetime | None = None,
) -> PruneReport:
    """Prune threads whose last checkpoint is older than `older_than`.

    With `keep_latest` the newest checkpoint of each such thread survives (it
    can still be inspected and resumed); otherwise the thread is deleted. A
    thread with a pending approval is skipped unless `force`.
    """
    cutoff = (now or datetime.now(UTC)) - older_than
    stale = [t.thread_id for t in await list_threads(conn) if t.updated_at < cutoff]
    pending = await _threads_with_pending_approvals(conn)
    kept = () if force else tuple(t for t in stale if t in pending)
    ids = tuple(t for t in stale if t not in kept)
    before = await _count_checkpoints(conn)
    strategy: Literal["delete", "keep_latest"] = "keep_latest" if keep_latest else "delete"
    if ids:
        await saver.aprune(list(ids), strategy=strategy)
        if strategy == "delete":
            await conn.execute(
                "DELETE FROM approvals WHERE status = 'pending' AND thread_id = ANY(%s)",
                (list(ids),),
            )
    return PruneReport(strategy, ids, before, await _count_checkpoints(conn), kept)


async def _threads_with_pending_approvals(conn: psycopg.AsyncConnection[DictRow]) -> set[str]:
    cur = await conn.execute("SELECT DISTINCT thread_id FROM approvals WHERE status = 'pending'")
    return {row["thread_id"] for row in await cur.fetchall()}


async def _count_checkpoints(conn: psycopg.AsyncConnection[DictRow]) -> int:
    cur = await conn.execute("SELECT count(*) AS n FROM checkpoints")
    row = await cur.fetchone()
    return int(row["n"]) if row else 0
