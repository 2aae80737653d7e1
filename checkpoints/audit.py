"""The audit trail: one `audit_events` row per skill call, read back by audit id.

Writing and reading live together so the column list is spelled once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import DictRow
from psycopg.types.json import Jsonb

from checkpoints.errors import NotFound

_COLUMNS = (
    "audit_id",
    "thread_id",
    "step",
    "node",
    "role",
    "skill",
    "version",
    "args_hash",
    "status",
    "error_code",
    "retries",
    "duration_ms",
    "breaker_state",
    "approval_id",
    "detail",
)


@dataclass(frozen=True)
class AuditEvent:
    """One row to append to `audit_events`."""

    audit_id: str
    status: str
    thread_id: str | None = None
    step: int = 0
    node: str | None = None
    role: str | None = None
    skill: str | None = None
    version: str | None = None
    args_hash: str | None = None
    error_code: str | None = None
    retries: int = 0
    duration_ms: int = 0
    breaker_state: str | None = None
    approval_id: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AuditRecord:
    """A stored event, with its position and time."""

    id: int
    created_at: datetime
    event: AuditEvent


async def record_event(conn: psycopg.AsyncConnection[DictRow], event: AuditEvent) -> int:
    """Append one event; return its row id."""
    values = [getattr(event, name) for name in _COLUMNS]
    values[-1] = Jsonb(dict(event.detail), dumps=_dumps)
    placeholders = ", ".join(["%s"] * len(_COLUMNS))
    cur = await conn.execute(
        f"INSERT INTO audit_events ({', '.join(_COLUMNS)}) VALUES ({placeholders}) RETURNING id",
        values,
    )
    row = await cur.fetchone()
    assert row is not None  # INSERT ... RETURNING always yields the row
    return int(row["id"])


async def fetch_audit_chain(
    conn: psycopg.AsyncConnection[DictRow], audit_id: str
) -> list[AuditRecord]:
    """Every event of one audit id, in the order it was written.

    Raises `NotFound` when the id has no events, so callers never mistake a
    typo for an empty run.
    """
    cur = await conn.execute(
        f"SELECT id, created_at, {', '.join(_COLUMNS)} FROM audit_events"
        " WHERE audit_id = %s ORDER BY id",
        (audit_id,),
    )
    rows = await cur.fetchall()
    if not rows:
        raise NotFound(
            f"no audit events for audit id {audit_id!r}; check the id printed with the run's result"
        )
    return [_record(row) for row in rows]


async def recent_success_rate(
    conn: psycopg.AsyncConnection[DictRow], skill: str, window: int
) -> float | None:
    """Share of successful calls among the skill's `window` most recent ones; None if none."""
    cur = await conn.execute(
        "SELECT avg((status = 'success')::int) AS rate FROM"
        " (SELECT status FROM audit_events WHERE skill = %s ORDER BY id DESC LIMIT %s) AS recent",
        (skill, window),
    )
    row = await cur.fetchone()
    return None if row is None or row["rate"] is None else float(row["rate"])


CUSTOMER_CONFIRMED = "customer_confirmed"


async def has_confirmation(
    conn: psycopg.AsyncConnection[DictRow],
    audit_id: str,
    skill: str,
    args_hash: str,
    *,
    status: str = CUSTOMER_CONFIRMED,
) -> bool:
    """Whether the customer confirmed exactly this call (skill + args hash) in the turn
    `audit_id`: the audit row intake writes on an explicit yes is the only proof.
    (With `status`, whether the turn recorded that other answer to the call.)"""
    cur = await conn.execute(
        "SELECT 1 FROM audit_events WHERE audit_id = %s AND status = %s AND skill = %s"
        " AND args_hash = %s LIMIT 1",
        (audit_id, status, skill, args_hash),
    )
    return await cur.fetchone() is not None


def _dumps(value: Any) -> str:
    return json.dumps(value, default=str)


def _record(row: DictRow) -> AuditRecord:
    fields = {name: row[name] for name in _COLUMNS}
    return AuditRecord(id=int(row["id"]), created_at=row["created_at"], event=AuditEvent(**fields))


AUDIT_COLUMNS = (
    "time", "step", "node", "role", "skill@version", "status",
    "error", "retries", "duration_ms", "breaker", "approval",
)  # fmt: skip
"""The columns an audit chain is shown in (`rolegraph audit`, the web inbox)."""


def audit_cells(record: AuditRecord) -> tuple[str, ...]:
    """One audit event as text, in `AUDIT_COLUMNS` order."""
    e = record.event
    skill = f"{e.skill}@{e.version}" if e.version else (e.skill or "-")
    return (
        record.created_at.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],
        str(e.step),
        e.node or "-",
        e.role or "-",
        skill,
        e.status,
        e.error_code or "-",
        str(e.retries),
        str(e.duration_ms),
        e.breaker_state or "-",
        e.approval_id or "-",
    )
