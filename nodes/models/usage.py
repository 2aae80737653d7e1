"""Token usage per model call, written to `token_ledger` for budgets and `rolegraph usage`."""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.messages import BaseMessage

from checkpoints import token_ledger
from checkpoints.opening import Pool
from checkpoints.token_ledger import Outcome


@dataclass(frozen=True)
class Usage:
    """Token counts one model call reported."""

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
    pool: Pool,
    *,
    thread_id: str | None,
    node: str,
    role: str | None,
    model: str,
    input_tokens: int,
    output_tokens: int,
    audit_id: str | None = None,
    outcome: Outcome = "replied",
    estimated: bool = False,
) -> None:
    """Append one row to `token_ledger`."""
    row = token_ledger.UsageRow(
        node, model, input_tokens, output_tokens, thread_id, role, audit_id, outcome, estimated
    )
    async with pool.connection() as conn:
        await token_ledger.record_usage(conn, row)
