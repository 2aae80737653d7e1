"""A long conversation keeps a bounded checkpoint (issue 9 §4, §7).

Thirty cheap read turns on one thread, with a context budget small enough
that they pass it (`ROLEGRAPH_CONTEXT_TOKENS=1000`): the latest checkpoint
stays under the README's bound ("Bounded context"); the same conversation
with compression out of reach (a huge budget) grows past it.
"""

from __future__ import annotations

import dataclasses

import pytest

from graphs.api import run_request
from nodes.bootstrap import build_support_context
from nodes.context import SupportContext
from nodes.conversation.budget import ContextBudget
from nodes.conversation.history import SUMMARY_ID
from nodes.conversation.record import record_of
from tests.integration.graph.helpers import user_with_orders
from tests.support_fixtures import Support

TURNS = 30
BOUND = 20 * 1024
"""The README's bound on the latest checkpoint of this conversation with a 1000-token budget."""
DEFAULT_BOUND = 64 * 1024
"""... and with the default budget (4000 tokens), however long the conversation."""
PREFERENCE = "From now on, please refund to my gift card."

LATEST_CHECKPOINT_BYTES = """
WITH latest AS (
    SELECT checkpoint, metadata FROM checkpoints
    WHERE thread_id = %(t)s AND checkpoint_ns = ''
    ORDER BY checkpoint_id DESC LIMIT 1
)
SELECT octet_length(l.checkpoint::text) + octet_length(l.metadata::text) + coalesce((
    SELECT sum(octet_length(b.blob))
    FROM jsonb_each_text(l.checkpoint -> 'channel_versions') AS v(channel, version)
    JOIN checkpoint_blobs b ON b.thread_id = %(t)s AND b.checkpoint_ns = ''
        AND b.channel = v.channel AND b.version = v.version
), 0) AS bytes
FROM latest l
"""


async def checkpoint_bytes(support: Support, thread_id: str) -> int:
    """Bytes of the thread's latest checkpoint: its row, and the blob of every
    channel version it points to (how `AsyncPostgresSaver` stores non-primitive values)."""
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(LATEST_CHECKPOINT_BYTES, {"t": thread_id})
        row = await cur.fetchone()
    assert row is not None
    return int(row["bytes"])


def _turns(orders: list[str], turns: int) -> list[str]:
    """A stated preference, then order statuses and policy questions, round and round."""
    asks = [
        *(f"what's the status of order {o}?" for o in orders),
        "what is your return policy?",
        "how long does shipping take?",
    ]
    return [PREFERENCE, *(asks[i % len(asks)] for i in range(turns - 1))]


async def _conversation(
    support: Support, ctx: SupportContext, user: str, orders: list[str], turns: int = TURNS
) -> tuple[str, list[int]]:
    """Run the conversation on a new thread; its id and the checkpoint bytes after each turn."""
    thread_id, sizes = None, []
    for text in _turns(orders, turns):
        done = await run_request(support.graph, ctx, text=text, user_id=user, thread_id=thread_id)
        assert done.status == "completed", (done.turn, done.answer)
        thread_id = done.thread_id
        sizes.append(await checkpoint_bytes(support, thread_id))
    assert thread_id is not None
    return thread_id, sizes


async def test_thirty_turns_stay_under_the_bound_only_with_compression(support: Support) -> None:
    user, orders = await user_with_orders(support.db.pool, "delivered", count=2, skip=30)
    small = await build_support_context(support.db.pool, env={"ROLEGRAPH_CONTEXT_TOKENS": "1000"})
    assert small.context_budget == ContextBudget(tokens=1000)
    tid, bounded = await _conversation(support, small, user, orders)
    huge = dataclasses.replace(small, context_budget=ContextBudget(tokens=10**9))
    _, unbounded = await _conversation(support, huge, user, orders)
    print(f"\nlatest checkpoint bytes, compressed: {bounded}\nuncompressed: {unbounded}")
    assert max(bounded) < BOUND < unbounded[-1]
    assert max(bounded[-10:]) <= max(bounded[10:20]) + 1024  # flat, not growing

    state = (await support.graph.aget_state({"configurable": {"thread_id": tid}})).values
    messages = state["messages"]
    assert messages[0].id == SUMMARY_ID and 0 < len(state["summary"]) <= 300
    assert PREFERENCE not in [m.text for m in messages]  # turn 1 was compressed away
    assert len(messages) < 2 * TURNS and all(record_of(m) for m in messages if m.type == "ai")
    # ... and the fact it stated was stored before: the last turn still recalls it.
    assert state["memory"].get("refund_method") == "gift_card"


@pytest.mark.slow
async def test_the_default_budget_bounds_a_conversation_of_any_length(support: Support) -> None:
    # 120 turns: without compression the checkpoint would pass 64 KiB near turn 95.
    user, orders = await user_with_orders(support.db.pool, "delivered", count=2, skip=31)
    tid, sizes = await _conversation(support, support.ctx, user, orders, turns=120)
    print(f"\nlatest checkpoint bytes, default budget: max {max(sizes)}, last {sizes[-1]}")
    assert max(sizes) < DEFAULT_BOUND
    state = (await support.graph.aget_state({"configurable": {"thread_id": tid}})).values
    assert state["messages"][0].id == SUMMARY_ID and len(state["messages"]) < 2 * 120


async def test_each_answer_carries_its_turn_record(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "delivered", skip=32)
    done = await run_request(
        support.graph, support.ctx, text=f"what's the status of order {order}?", user_id=user
    )
    state = (await support.graph.aget_state({"configurable": {"thread_id": done.thread_id}})).values
    record = record_of(state["messages"][-1])
    assert record is not None and record.turn == 1 and record.status == "completed"
    assert record.intents == tuple(done.intents) and order in record.ids and order in record.facts
    assert [(s.skill, s.status) for s in record.steps] == [
        (t["skill"], "succeeded") for t in done.plan
    ]
    assert "summary" not in state  # far within the budget: nothing compressed
