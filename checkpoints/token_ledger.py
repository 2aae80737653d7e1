"""The `token_ledger` table: tokens each model call used, for budgets and `rolegraph usage`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal

import psycopg
from psycopg.rows import DictRow

Outcome = Literal["replied", "failed", "timed_out"]


@dataclass(frozen=True)
class UsageRow:
    """One model call's token counts (never negative)."""

    node: str
    model: str
    input_tokens: int
    output_tokens: int
    thread_id: str | None = None
    role: str | None = None
    audit_id: str | None = None
    outcome: Outcome = "replied"
    estimated: bool = False
    """True when the counts are estimates, not what the endpoint reported."""


@dataclass(frozen=True)
class Spent:
    """Tokens already spent in each budget's scope."""

    request: int = 0
    agent: int = 0
    day: int = 0


@dataclass(frozen=True)
class UsageTotal:
    """Tokens of one (day, node, role, model) group of `rolegraph usage`."""

    day: date
    node: str
    role: str | None
    model: str
    calls: int
    input_tokens: int
    output_tokens: int
    estimated_calls: int


async def record_usage(conn: psycopg.AsyncConnection[DictRow], row: UsageRow) -> None:
    """Append one row."""
    await conn.execute(
        "INSERT INTO token_ledger (thread_id, audit_id, node, role, model,"
        " input_tokens, output_tokens, outcome, estimated)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (
            row.thread_id,
            row.audit_id,
            row.node,
            row.role,
            row.model,
            row.input_tokens,
            row.output_tokens,
            row.outcome,
            row.estimated,
        ),
    )


def day_start(day: date) -> datetime:
    """Midnight UTC that starts `day`: budgets and reports count days in UTC."""
    return datetime.combine(day, time.min, tzinfo=UTC)


async def spent(
    conn: psycopg.AsyncConnection[DictRow],
    *,
    thread_id: str | None,
    audit_id: str | None,
    node: str,
    role: str | None,
    day: date,
) -> Spent:
    """Tokens spent by this request (thread + audit id), by its `node`/`role` in it, and on `day`.

    A call outside any request (no thread and no audit id) has only the day's scope.
    """
    request = thread_id is not None or audit_id is not None
    cur = await conn.execute(
        "SELECT"
        " coalesce(sum(input_tokens + output_tokens) FILTER (WHERE %(request)s"
        "   AND thread_id IS NOT DISTINCT FROM %(thread)s"
        "   AND audit_id IS NOT DISTINCT FROM %(audit)s), 0) AS request,"
        " coalesce(sum(input_tokens + output_tokens) FILTER (WHERE %(request)s"
        "   AND thread_id IS NOT DISTINCT FROM %(thread)s"
        "   AND audit_id IS NOT DISTINCT FROM %(audit)s"
        "   AND node = %(node)s AND role IS NOT DISTINCT FROM %(role)s), 0) AS agent,"
        " coalesce(sum(input_tokens + output_tokens) FILTER (WHERE created_at >= %(from)s"
        "   AND created_at < %(to)s), 0) AS day"
        " FROM token_ledger"
        " WHERE (created_at >= %(from)s AND created_at < %(to)s)"
        "  OR (%(request)s AND thread_id IS NOT DISTINCT FROM %(thread)s"
        "      AND audit_id IS NOT DISTINCT FROM %(audit)s)",
        {
            "request": request,
            "thread": thread_id,
            "audit": audit_id,
            "node": node,
            "role": role,
            "from": day_start(day),
            "to": day_start(day + timedelta(days=1)),
        },
    )
    found = await cur.fetchone()
    assert found is not None  # an aggregate always returns one row
    return Spent(int(found["request"]), int(found["agent"]), int(found["day"]))


async def usage_totals(
    conn: psycopg.AsyncConnection[DictRow], day: date | None = None
) -> list[UsageTotal]:
    """Tokens per (day UTC, node, role, model), newest day first; only `day` when given."""
    where, params = "", {}
    if day is not None:
        where = " WHERE created_at >= %(from)s AND created_at < %(to)s"
        params = {"from": day_start(day), "to": day_start(day + timedelta(days=1))}
    cur = await conn.execute(
        "SELECT (created_at AT TIME ZONE 'UTC')::date AS day, node, role, model,"
        " count(*) AS calls, sum(input_tokens) AS input_tokens,"
        " sum(output_tokens) AS output_tokens, count(*) FILTER (WHERE estimated) AS estimated"
        f" FROM token_ledger{where}"
        " GROUP BY 1, 2, 3, 4 ORDER BY 1 DESC, 2, 3 NULLS FIRST, 4",
        params,
    )
    return [
        UsageTotal(
            day=r["day"],
            node=r["node"],
            role=r["role"],
            model=r["model"],
            calls=int(r["calls"]),
            input_tokens=int(r["input_tokens"]),
            output_tokens=int(r["output_tokens"]),
            estimated_calls=int(r["estimated"]),
        )
        for r in await cur.fetchall()
    ]
