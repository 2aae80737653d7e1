"""Retention of the harness's own rows: audit, ledgers, approvals, outbox.

Each table keeps its rows for its own period (an environment variable with a
default), and only rows that are finished: a pending approval, a ledger row
that is still `started` or `unknown`, or one whose thread can still be
continued, and a notification not yet sent, are never pruned. Deleted space
is given back with VACUUM, which must run outside a transaction (the pool's
connections are autocommit).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import psycopg
from psycopg import sql
from psycopg.rows import DictRow

from checkpoints.errors import ConfigurationError, RolegraphError
from checkpoints.retention import parse_age


@dataclass(frozen=True)
class RowRule:
    """Which rows of one table may go, and after how long."""

    table: str
    env: str
    """The environment variable holding this table's retention, e.g. `90d`."""
    default: timedelta
    minimum: timedelta
    """Shorter would break a guarantee (a daily token budget needs a day of rows)."""
    age_column: str
    finished: str
    """SQL condition on the table's row: true when nothing still depends on it."""


_LIVE_RUN = (
    "EXISTS (SELECT 1 FROM checkpoints c WHERE c.checkpoint_ns = ''"
    " AND c.checkpoint -> 'channel_values' ->> 'audit_id' = {run})"
)
_PENDING_RUN = (
    "EXISTS (SELECT 1 FROM approvals a WHERE a.status = 'pending' AND a.audit_id = {run})"
)

RULES: tuple[RowRule, ...] = (
    RowRule(
        "audit_events", "ROLEGRAPH_RETAIN_AUDIT", timedelta(days=90), timedelta(days=1),
        "created_at", "NOT " + _PENDING_RUN.format(run="audit_events.audit_id"),
    ),
    RowRule(
        # A thread that can still be continued replays its writes from here.
        "idempotency_ledger", "ROLEGRAPH_RETAIN_LEDGER", timedelta(days=30), timedelta(days=1),
        "created_at", "state IN ('succeeded', 'failed') AND NOT "
        + _LIVE_RUN.format(run="idempotency_ledger.run_id"),
    ),
    RowRule(
        "approvals", "ROLEGRAPH_RETAIN_APPROVALS", timedelta(days=90), timedelta(days=1),
        "coalesce(decided_at, created_at)", "status <> 'pending'",
    ),
    RowRule(
        "token_ledger", "ROLEGRAPH_RETAIN_TOKENS", timedelta(days=90), timedelta(days=1),
        "created_at", "TRUE",
    ),
    RowRule(
        "notifications", "ROLEGRAPH_RETAIN_NOTIFICATIONS", timedelta(days=30), timedelta(0),
        "coalesce(sent_at, created_at)", "status IN ('sent', 'failed')",
    ),
    RowRule(
        # Only revoked tokens: a live one is someone's key, however old.
        "auth_tokens", "ROLEGRAPH_RETAIN_REVOKED_TOKENS", timedelta(days=90), timedelta(0),
        "revoked_at", "revoked_at IS NOT NULL",
    ),
)  # fmt: skip


@dataclass(frozen=True)
class RetentionSettings:
    """How long each table keeps its finished rows."""

    periods: Mapping[str, timedelta]

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> RetentionSettings:
        periods = {}
        for rule in RULES:
            raw = env.get(rule.env, "").strip()
            try:
                period = parse_age(raw) if raw else rule.default
            except RolegraphError:
                raise ConfigurationError(
                    f"{rule.env}={raw!r} is not an age; write e.g. 30d or 12h, or unset it"
                ) from None
            if period < rule.minimum:
                raise ConfigurationError(
                    f"{rule.env}={raw} is shorter than {rule.minimum.days} day(s); "
                    "its rows are needed that long"
                )
            periods[rule.table] = period
        return cls(periods)


async def prune_rows(
    conn: psycopg.AsyncConnection[DictRow],
    settings: RetentionSettings,
    *,
    now: datetime | None = None,
) -> dict[str, int]:
    """Delete each table's finished rows older than its period; rows deleted per table."""
    now = now or datetime.now(UTC)
    deleted: dict[str, int] = {}
    for rule in RULES:
        statement = sql.SQL("DELETE FROM {table} WHERE {age} < %s AND ({finished})").format(
            table=sql.Identifier(rule.table),
            age=sql.SQL(rule.age_column),
            finished=sql.SQL(rule.finished),  # fixed text of RULES, never input
        )
        cur = await conn.execute(statement, (now - settings.periods[rule.table],))
        deleted[rule.table] = cur.rowcount
    return deleted


async def vacuum(conn: psycopg.AsyncConnection[DictRow], tables: list[str]) -> None:
    """VACUUM (ANALYZE) the tables: dead rows become free space, trailing pages go back."""
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE or not conn.autocommit:
        raise RuntimeError("VACUUM needs an autocommit connection outside a transaction")
    for table in dict.fromkeys(tables):
        await conn.execute(sql.SQL("VACUUM (ANALYZE) {}").format(sql.Identifier(table)))


async def table_bytes(conn: psycopg.AsyncConnection[DictRow], tables: list[str]) -> int:
    """Total on-disk size of the tables, with their indexes and TOAST."""
    cur = await conn.execute(
        "SELECT coalesce(sum(pg_total_relation_size(to_regclass(t))), 0) AS n FROM unnest(%s::text[]) t",
        (tables,),
    )
    row = await cur.fetchone()
    return int(row["n"]) if row else 0
