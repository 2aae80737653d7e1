"""On the support graph: the small model summarises compressed turns, checked against the records."""

from __future__ import annotations

import dataclasses

from graphs.api import run_request
from nodes.conversation.budget import ContextBudget
from nodes.conversation.history import SUMMARY_ID
from nodes.models import ModelTiers
from tests.fakes.chat import ScriptedChatModel
from tests.integration.graph.helpers import user_with_orders
from tests.support_fixtures import Support

NOT_JSON = "I would rather chat."
"""Intake's and the planner's calls: rejected, so their rules tier runs."""
COMPOSE_DOWN = RuntimeError("compose's model tier is not under test: the template answers")


async def _ledger_calls(support: Support, thread_id: str, node: str) -> int:
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM token_ledger WHERE thread_id = %s AND node = %s",
            (thread_id, node),
        )
        row = await cur.fetchone()
    return int(row["n"]) if row else 0


async def test_a_model_summary_that_invents_an_order_id_is_not_used(support: Support) -> None:
    user, orders = await user_with_orders(support.db.pool, "delivered", count=2, skip=33)
    roomy = dataclasses.replace(support.ctx, context_budget=ContextBudget(tokens=10**9))
    asks = [f"what's the status of order {o}?" for o in orders]
    asks += ["what is your return policy?", "how long does shipping take?"] * 4
    tid = None
    for text in asks[:9]:  # rules only, nothing compressed yet
        done = await run_request(support.graph, roomy, text=text, user_id=user, thread_id=tid)
        tid = done.thread_id
    # Turn 10 passes a small budget: turns 1-7 (14 messages, three groups) are compressed.
    invented = "Turns 1-2: the customer asked about #W0000001, which was cancelled."
    merged = f"The customer checked orders {orders[0]} and {orders[1]}, then asked about policies."
    groups = [invented, "Turns 3-5: return and shipping questions.", "Turns 5-7: the same again."]
    small = ScriptedChatModel(
        script=[NOT_JSON, NOT_JSON, COMPOSE_DOWN, *groups, merged], model_name="tiny"
    )
    tight = dataclasses.replace(
        support.ctx, models=ModelTiers(small=small), context_budget=ContextBudget(tokens=500)
    )
    done = await run_request(support.graph, tight, text=asks[9], user_id=user, thread_id=tid)
    assert done.status == "completed" and "compress[small]: 14 messages" in " ".join(done.trace)
    merge_request = small.calls[6][1].text
    assert "#W0000001" not in merge_request  # the invented group summary was replaced
    assert f"group 1: turns 1-2: ids {orders[0]}" in merge_request  # ... by the extractive one
    assert groups[1] in merge_request and groups[2] in merge_request
    state = (await support.graph.aget_state({"configurable": {"thread_id": tid}})).values
    assert state["summary"] == merged and state["messages"][0].id == SUMMARY_ID
    assert await _ledger_calls(support, tid, "compress") == 4  # spent tokens are recorded
