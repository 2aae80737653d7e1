"""A spent token budget at a role agent: the customer is told, the operators notified."""

from __future__ import annotations

import dataclasses

from nodes.models.budget import Budgets
from nodes.models.budget_notice import budget_spent_text
from skills.outbox.operator_settings import OperatorNotices
from tests.fakes.chat import ScriptedChatModel
from tests.integration.agent.helpers import agent_tiers, ask, audit_of, goal, intake, user_with_item
from tests.support_fixtures import Support

QUESTION = "which of my orders had a desk lamp?"
SPENT_BY_PLANNING = 2 * (6000 + 20)


async def test_a_budget_spent_before_the_agent_tells_the_customer(support: Support) -> None:
    user, _, _ = await user_with_item(support.db.pool, "desk lamp")
    large = ScriptedChatModel(
        script=[
            intake("order_status", item_names=["desk lamp"]),
            goal("order_query", "find which of the customer's orders contain a desk lamp"),
        ],
        model_name="big",
        input_tokens=6000,
        output_tokens=20,
    )
    small = ScriptedChatModel(script=[], model_name="tiny")  # never asked: nothing is left
    tiers = agent_tiers(large=large, small=small)
    tiers = dataclasses.replace(tiers, budgets=Budgets(request=SPENT_BY_PLANNING + 50))
    ops = OperatorNotices(recipients=("ops@example.com",))
    ctx = dataclasses.replace(support.ctx, models=tiers, operator_notices=ops)
    done = await ask(support, ctx, QUESTION, user)

    assert small.calls == [] and len(large.calls) == 2
    assert budget_spent_text("en") in done.answer, done.answer
    assert any("g1 goal -> failed (budget; no calls)" in line for line in done.trace), done.trace
    assert await audit_of(support.db.pool, done.audit_id or "") == []  # no skill ran
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT recipient, subject FROM notifications WHERE idempotency_key LIKE %s",
            (f"budget:{done.thread_id}:{done.audit_id}:role_order_query:%",),
        )
        notices = await cur.fetchall()
    assert [n["recipient"] for n in notices] == ["ops@example.com"]
    assert "request token budget spent" in notices[0]["subject"]
