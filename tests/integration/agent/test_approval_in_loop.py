"""An approval inside a role agent's loop: the approval node asks the operator (as for
any call), and the approved task resumes the loop at the call that waited — in a fresh
graph and context on the same database, without asking the model again."""

from __future__ import annotations

import dataclasses

from langchain_core.messages import ToolMessage
from langgraph.types import Command

from graphs.api import compile_support, report, resume_thread, run_request
from nodes.bootstrap import build_support_context
from nodes.identity import AUTH_USER_KEY, Identity
from nodes.models import ModelTiers
from tests.fakes.chat import ToolCalls
from tests.integration.agent.helpers import audit_of, fake, goal, intake, with_models
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders
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
    fresh = dataclasses.replace(fresh, models=ModelTiers(large=after))
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
    rows = [(r["skill"], r["status"]) for r in await audit_of(support.db.pool, done.audit_id or "")]
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
