"""Token usage per model call, written to `token_ledger` for per-day budgets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage


@dataclass(frozen=True)
class Usage:
    input_tokens: int
    output_tokens: int


def usage_of(message: BaseMessage) -> Usage | None:
    """The token counts a chat model reported, or None when it reported none."""
    meta = getattr(message, "usage_metadata", None)
    if not meta:
        return None
    # Clamp: the ledger refuses negatives, and a buggy endpoint must not break a request.
    return Usage(
        input_tokens=max(int(meta.get("input_tokens") or 0), 0),
        output_tokens=max(int(meta.get("output_tokens") or 0), 0),
    )


async def record_usage(
    pool: Any,
    *,
    thread_id: str | None,
    node: str,
    role: str | None,
    model: str,
    input_tokens: int,
    output_tokens: int,
) -> None:
    """Append one row to `token_ledger` (pool: psycopg AsyncConnectionPool)."""
    async with pool.connection() as conn:
        await conn.execute(
            "INSERT INTO token_ledger"
            " (thread_id, node, role, model, input_tokens, output_tokens)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (thread_id, node, role, model, input_tokens, output_tokens),
        )
