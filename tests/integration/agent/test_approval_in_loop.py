"""An approval inside a role agent's loop (the react mode's front agent: a goal the
support planner hands out beside its plan only reads): the approval node asks the
operator as for any call, a customer cannot answer it, a rejection changes nothing, and
a crash mid-loop continues from the last step. The approved loop resuming in a fresh
process without asking the model again: tests/integration/modes/test_react.py."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from langgraph.types import Command

from graphs.api import (
    compile_support,
    continue_thread,
    new_thread_id,
    report,
    resume_thread,
    run_request,
)
from nodes.bootstrap import build_support_context
from nodes.identity import AUTH_USER_KEY, Identity
from tests.fakes.chat import ToolCalls
from tests.integration.agent.helpers import agent_tiers, audit_of, fake, goal, intake, with_models
from tests.integration.graph.helpers import (
    OPERATOR,
    order_status,
    user_with_orders,
    with_executor,
)
from tests.integration.modes.react_helpers import agent_model, react_ctx, react_graph
from tests.support_fixtures import Support

GOAL = "cancel the customer's pending order they no longer need"


async def test_a_goal_beside_a_plan_only_reads(support: Support) -> None:
    # In the support mode a goal runs beside the rules plan and may not change anything:
    # the write is never offered, and named anyway it is refused and nothing is asked.
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=20)
    cancel = ("cancel_pending_order_v1", {"order_id": order, "reason": "no longer needed"})
    model = fake(
        intake("order_status", order_ids=[order]),
        goal("billing_specialist", GOAL),
        ToolCalls.of(cancel),
        "Done.",
    )
    ctx = with_models(support, model, None)
    graph = compile_support(ctx, support.db.checkpointer)
    done = await run_request(
        graph, ctx, text=f"I no longer need {order}, please take care of it", user_id=user
    )
    assert done.status == "completed" and not done.interrupts and not done.question, done.trace
    assert "cancel_pending_order_v1" not in model.bound[0]
    assert await order_status(support.db.pool, order) == "pending"
    assert await audit_of(support.db.pool, done.audit_id or "") == []  # never reached the runtime
    assert any("cancel_pending_order_v1:rejected" in line for line in done.trace), done.trace


def _cancelling(order: str, *after: str) -> Any:
    """The front agent cancelling `order` on the request's turn and again on the "yes"."""
    cancel = ("cancel_pending_order_v1", {"order_id": order, "reason": "no longer needed"})
    return agent_model(ToolCalls.of(cancel), ToolCalls.of(cancel), *after)


async def _waiting(support: Support, ctx: Any, graph: Any, order: str, user: str) -> Any:
    text = f"please cancel {order}, I no longer need it"
    asked = await run_request(graph, ctx, text=text, user_id=user)
    assert asked.status == "needs_input", asked.trace
    waiting = await run_request(graph, ctx, text="yes", user_id=user, thread_id=asked.thread_id)
    assert waiting.status == "interrupted", waiting.trace
    return waiting


async def test_a_customer_cannot_answer_the_loops_approval(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=21)
    ctx = react_ctx(support.ctx, _cancelling(order, "Done."))
    graph = react_graph(support, ctx)
    waiting = await _waiting(support, ctx, graph, order, user)
    (request,) = waiting.interrupts
    customer = Identity("customer", user)
    config = {
        "configurable": {"thread_id": waiting.thread_id, AUTH_USER_KEY: customer.as_auth_user()}
    }
    await graph.ainvoke(
        Command(resume={request["id"]: {"decision": "approve"}}), config, context=ctx
    )
    assert await order_status(support.db.pool, order) == "pending"
    still = await report(graph, waiting.thread_id)
    assert still.status == "interrupted" and still.interrupts[0]["id"] == request["id"]
    done = await resume_thread(graph, ctx, waiting.thread_id, decision="approve", actor=OPERATOR)
    assert done.status == "completed", done.trace
    assert await order_status(support.db.pool, order) == "cancelled"
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT detail FROM audit_events WHERE thread_id = %s AND status = 'approval_refused'",
            (waiting.thread_id,),
        )
        assert [r["detail"]["by"] for r in await cur.fetchall()] == [customer.label]


async def test_a_rejected_call_ends_the_goal_and_changes_nothing(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=22)
    ctx = react_ctx(support.ctx, _cancelling(order))
    graph = react_graph(support, ctx)
    waiting = await _waiting(support, ctx, graph, order, user)
    done = await resume_thread(graph, ctx, waiting.thread_id, decision="reject", actor=OPERATOR)
    assert done.status == "completed", done.trace
    assert await order_status(support.db.pool, order) == "pending"
    assert "rejected" in done.answer and "nothing was changed" in done.answer


class Crash(BaseException):
    """The process dies in the middle of a tool call."""


class _Dies:
    """An executor that takes the process down when it runs."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def validate_input(self, args: Any) -> dict[str, Any]:
        return dict(self.real.validate_input(args))

    async def execute(self, args: dict[str, Any], ctx: Any) -> Any:
        raise Crash

    async def rollback(self, args: dict[str, Any], ctx: Any, payload: Any) -> None:
        return None


async def test_a_crash_mid_loop_continues_from_the_last_step(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=23)
    large = fake(intake("order_status"), goal("order_query", "what are my orders"))
    small = fake(
        ToolCalls.of(("get_user_details_v1", {})),
        ToolCalls.of(("get_order_details_v1", {"order_id": order})),
        name="dies",
    )
    real = support.ctx.registry.get("get_order_details_v1").executor
    ctx = with_executor(support, "get_order_details_v1", _Dies(real))
    ctx = dataclasses.replace(ctx, models=agent_tiers(large=large, small=small))
    graph = compile_support(ctx, support.db.checkpointer)
    thread = new_thread_id()
    with pytest.raises(Crash):
        await run_request(graph, ctx, text="what are my orders?", user_id=user, thread_id=thread)
    assert (await report(graph, thread)).status == "crashed"

    # Another process continues: the tool step that died runs again, nothing before it.
    fresh = await build_support_context(support.db.pool, env={})
    again = fake(f"Your order {order} is pending.", name="continues")
    fresh = dataclasses.replace(fresh, models=agent_tiers(large=fake(), small=again))
    fresh_graph = compile_support(fresh, support.db.checkpointer)
    done = await continue_thread(fresh_graph, fresh, thread, actor=OPERATOR)
    assert done.status == "completed", done.trace
    assert len(again.calls) == 1
    rows = await audit_of(support.db.pool, done.audit_id or "")
    assert [(r["skill"], r["status"]) for r in rows] == [
        ("get_user_details_v1", "success"),
        ("get_order_details_v1", "success"),
    ]
    assert order in done.answer
