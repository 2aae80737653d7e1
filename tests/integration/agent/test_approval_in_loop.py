"""An approval inside a role agent's loop: the approval node asks the operator (as for
any call), and the approved task resumes the loop at the call that waited — in a fresh
graph and context on the same database, without asking the model again."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
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
from tests.support_fixtures import Support

GOAL = "cancel the customer's pending order they no longer need"


async def test_approval_in_the_loop_resumes_in_a_fresh_process(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=20)
    cancel = ("cancel_pending_order_v1", {"order_id": order, "reason": "no longer needed"})
    text = f"I no longer need {order}, please take care of it"
    # Turn 1: the agent's cancel waits for the customer's yes; the turn asks it.
    first_model = fake(
        intake("order_status", order_ids=[order]),
        goal("billing_specialist", GOAL),
        ToolCalls.of(cancel),
        # Turn 2 ("yes"): the request is read and planned again; the agent's
        # confirmed cancel now waits for an operator, inside the loop.
        intake("order_status", order_ids=[order]),
        goal("billing_specialist", GOAL),
        ToolCalls.of(cancel),
    )
    ctx = with_models(support, first_model, None)
    graph = compile_support(ctx, support.db.checkpointer)
    asked = await run_request(graph, ctx, text=text, user_id=user)
    assert asked.status == "needs_input", asked.trace
    assert asked.question and asked.question["kind"] == "confirm"
    waiting = await run_request(graph, ctx, text="yes", user_id=user, thread_id=asked.thread_id)
    assert waiting.status == "interrupted", waiting.trace
    (request,) = waiting.interrupts
    assert request["skill"] == "cancel_pending_order_v1" and request["args"]["order_id"] == order
    assert await order_status(support.db.pool, order) == "pending"

    # Another process: a new context, graph and model. The model holds only the
    # step after the approved call: asking it for any earlier step would use it up.
    fresh = await build_support_context(support.db.pool, env={})
    after = fake(f"I cancelled order {order}.", name="after-approval")
    fresh = dataclasses.replace(fresh, models=agent_tiers(large=after))
    fresh_graph = compile_support(fresh, support.db.checkpointer)
    done = await resume_thread(
        fresh_graph, fresh, waiting.thread_id, decision="approve", actor=OPERATOR
    )

    assert done.status == "completed", done.trace
    assert await order_status(support.db.pool, order) == "cancelled", "\n".join(done.trace)
    assert len(after.calls) == 1
    told = [m for m in after.calls[0] if isinstance(m, ToolMessage)]
    # The one call it got came after the approved cancel ran, with its result.
    assert "cancelled" in str(told[-1].content)
    assert order in done.answer
    calls = await audit_of(support.db.pool, done.audit_id or "", task=None)
    rows = [(r["skill"], r["status"]) for r in calls]
    assert ("cancel_pending_order_v1", "approved") in rows
    assert rows.count(("cancel_pending_order_v1", "success")) == 1


async def test_a_customer_cannot_answer_the_loops_approval(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=21)
    cancel = ("cancel_pending_order_v1", {"order_id": order, "reason": "no longer needed"})
    read, plan = intake("order_status", order_ids=[order]), goal("billing_specialist", GOAL)
    model = fake(read, plan, ToolCalls.of(cancel), read, plan, ToolCalls.of(cancel), "Done.")
    ctx = with_models(support, model, None)
    graph = compile_support(ctx, support.db.checkpointer)
    asked = await run_request(graph, ctx, text=f"drop {order} please", user_id=user)
    waiting = await run_request(graph, ctx, text="yes", user_id=user, thread_id=asked.thread_id)
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
    cancel = ("cancel_pending_order_v1", {"order_id": order, "reason": "no longer needed"})
    read, plan = intake("order_status", order_ids=[order]), goal("billing_specialist", GOAL)
    model = fake(read, plan, ToolCalls.of(cancel), read, plan, ToolCalls.of(cancel))
    ctx = with_models(support, model, None)
    graph = compile_support(ctx, support.db.checkpointer)
    asked = await run_request(graph, ctx, text=f"drop {order} please", user_id=user)
    waiting = await run_request(graph, ctx, text="yes", user_id=user, thread_id=asked.thread_id)
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
