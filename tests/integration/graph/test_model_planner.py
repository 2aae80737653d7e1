"""The planner's model tier on the compiled support graph over reference data."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from graphs.api import compile_support
from nodes.models import ModelTiers
from tests.fakes.chat import ScriptedChatModel
from tests.integration.graph.helpers import audit_rows, order_status, user_with_orders
from tests.support_fixtures import Support, run_confirmed


def fake(*script: Any) -> ScriptedChatModel:
    return ScriptedChatModel(script=list(script))


def intake(intent: str, order: str) -> str:
    return json.dumps({"intents": [intent], "slots": {"order_ids": [order]}})


def plan(*tasks: tuple[str, str, str, dict[str, Any], list[str]]) -> str:
    keys = ("id", "role", "skill", "args", "depends_on")
    return json.dumps({"tasks": [dict(zip(keys, t, strict=True)) for t in tasks]})


async def run(support: Support, large: Any, small: Any, text: str, user: str) -> Any:
    ctx = dataclasses.replace(support.ctx, models=ModelTiers(large=large, small=small))
    graph = compile_support(ctx, support.db.checkpointer)
    return await run_confirmed(graph, ctx, text=text, user_id=user)


async def planner_ledger(support: Support, thread_id: str) -> list[str]:
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT model FROM token_ledger WHERE thread_id = %s AND node = 'planner' ORDER BY id",
            (thread_id,),
        )
        return [row["model"] for row in await cur.fetchall()]


async def test_valid_model_plan_runs_and_its_tier_is_traced(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=10)
    model_plan = plan(
        ("look", "order_query", "get_order_details_v1", {"order_id": order}, []),
        ("track", "logistics_analyst", "track_shipment_v1", {"order_id": order}, ["look"]),
        ("eta", "logistics_analyst", "calculate_eta_v1", {"order_id": order}, ["track"]),
    )
    large = fake(intake("track_shipment", order), model_plan)
    small = fake(RuntimeError("compose's model tier is not under test: the template answers"))
    done = await run(support, large, small, f"Where is my order {order}? track it", user)
    assert any(line.startswith("planner[large]: look:") for line in done.trace)
    # The rules' reads, in the model's order and with its dependencies.
    assert [t["id"] for t in done.plan] == ["look", "track", "eta"]
    assert done.status == "completed"
    assert await planner_ledger(support, done.thread_id) == ["scripted-model"]


async def test_hostile_plan_is_rejected_and_nothing_is_cancelled(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=11)
    track = ("a", "logistics_analyst", "track_shipment_v1", {"order_id": order}, [])
    cancel = {"order_id": order, "reason": "no longer needed"}
    large = fake(
        intake("track_shipment", order),
        plan(track, ("b", "logistics_analyst", "cancel_pending_order_v1", cancel, ["a"])),
    )
    # The small tier tries the same change under a role that may cancel: still
    # not something the customer asked for.
    small = fake(
        plan(track, ("b", "billing_specialist", "cancel_pending_order_v1", cancel, [])),
        RuntimeError("compose's model tier is not under test: the template answers"),
    )
    done = await run(support, large, small, f"Where is my order {order}? track it", user)
    assert any(line.startswith("planner[rules]: ") for line in done.trace)
    rules = ["get_order_details_v1", "track_shipment_v1", "calculate_eta_v1"]
    assert [t["skill"] for t in done.plan] == rules
    assert not done.interrupts
    assert await order_status(support.db.pool, order) == "pending"
    assert await audit_rows(support.db.pool, done.audit_id or "", "cancel_pending_order_v1") == []
    assert len(small.calls) == 2  # the planner's, then compose's


async def test_a_plan_dropping_the_requested_cancel_falls_back(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=12)
    lookup_only = plan(("a", "order_query", "get_order_details_v1", {"order_id": order}, []))
    # The customer's "yes" re-reads the confirmed request: both turns get the same model.
    large = fake(
        intake("cancel_order", order), lookup_only, intake("cancel_order", order), lookup_only
    )
    done = await run(support, large, None, f"please cancel {order}, ordered by mistake", user)
    assert any(line.startswith("planner[rules]: ") for line in done.trace)
    assert [i["skill"] for i in done.interrupts] == ["cancel_pending_order_v1"]
    assert await order_status(support.db.pool, order) == "pending"
