"""A request no plan template covers, answered by a role agent through whitelisted skills."""

from __future__ import annotations

from tests.fakes.chat import ToolCalls
from tests.integration.agent.helpers import (
    ask,
    audit_of,
    fake,
    goal,
    intake,
    user_with_item,
    with_models,
)
from tests.support_fixtures import Support

QUESTION = "which of my orders had a desk lamp?"


async def test_order_query_agent_finds_the_orders_with_a_desk_lamp(support: Support) -> None:
    user, orders, hits = await user_with_item(support.db.pool, "desk lamp")
    large = fake(
        intake("order_status", item_names=["desk lamp"]),
        goal("order_query", "find which of the customer's orders contain a desk lamp"),
    )
    small = fake(
        ToolCalls.of(("get_user_details_v1", {})),
        ToolCalls.of(*(("get_order_details_v1", {"order_id": o}) for o in orders)),
        f"Your order {hits[0]} had a desk lamp.",
        name="small-model",
    )
    done = await ask(support, with_models(support, large, small), QUESTION, user)

    assert done.status == "completed", done.trace
    # The goal runs beside the rules' plan, whose reads are answered as ever.
    assert [(t["id"], t["role"]) for t in done.plan][-1] == ("g1", "order_query")
    assert len(done.plan) > 1
    # The model's sentence passed the fact check, so it is stated as it was written.
    assert f"Your order {hits[0]} had a desk lamp." in done.answer
    assert any("g1 goal -> succeeded" in line for line in done.trace)
    # Offered the role's whitelist (never a denied skill) plus load_skill, less the
    # identity lookups the domain keeps from models.
    offered = set(small.bound[0])
    whitelist = support.ctx.roles["order_query"].execute
    kept = support.ctx.domain.planning.unplannable
    assert offered == {*(whitelist - kept), "load_skill"}
    assert "cancel_pending_order_v1" not in offered
    assert "find_user_id_by_email_v1" not in offered
    calls = [
        (r["skill"], r["role"], r["status"])
        for r in await audit_of(support.db.pool, done.audit_id or "")
    ]
    assert calls == [("get_user_details_v1", "order_query", "success")] + [
        ("get_order_details_v1", "order_query", "success") for _ in orders
    ]
