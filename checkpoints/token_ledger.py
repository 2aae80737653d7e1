"""The `token_ledger` table: tokens each model call used, for per-day budgets."""

from __future__ import annotations

from dataclasses import dataclass

import psycopg
from psycopg.rows import DictRow


@dataclass(frozen=True)
class UsageRow:
    """One model call's token counts (never negative)."""

    node: str
    model: str
    input_tokens: int
    output_tokens: int
    thread_id: str | None = None
    role: str | None = None


async def record_usage(conn: psycopg.AsyncConnection[DictRow], row: UsageRow) -> None:
    """Append one row."""
    await conn.execute(
        "INSERT INTO token_ledger"
        " (thread_id, node, role, model, input_tokens, output_tokens)"
        " VALUES (%s, %s, %s, %s, %s, %s)",
        (row.thread_id, row.node, row.role, row.model, row.input_tokens, row.output_tokens),
    )
