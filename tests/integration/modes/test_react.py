"""The react mode on reference data: the front role's agent runs the golden paths through
its whitelist, with the customer's confirmation and an operator's approval, resumed in a
fresh process from the checkpoint; without a model it answers as the support mode."""

from __future__ import annotations

import dataclasses

from langchain_core.messages import ToolMessage

from graphs.api import resume_thread, run_request
from graphs.modes import thread_mode
from nodes.bootstrap import build_support_context
from tests.cli import run_cli
from tests.fakes.chat import ToolCalls
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders
from tests.integration.modes.helpers import graph_of
from tests.integration.modes.react_helpers import (
    agent_model,
    audit_of,
    react_ctx,
    react_graph,
)
from tests.support_fixtures import Support, run_confirmed

FRONT = "front_desk"


async def test_a_read_is_answered_by_the_front_agent_through_its_whitelist(
    support: Support,
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=30)
    model = agent_model(
        ToolCalls.of(("track_shipment_v1", {"order_id": order})),
        f"Your package for order {order} is on its way.",
    )
    ctx = react_ctx(support.ctx, model)
    done = await run_request(
        react_graph(support, ctx), ctx, text=f"where is my package for {order}?", user_id=user
    )
    assert done.status == "completed", done.trace
    assert done.mode == "react"
    # One goal task (no skill of its own) for the front role.
    assert [(t["id"], t["role"], t["skill"]) for t in done.plan] == [("react", FRONT, "")]
    assert f"Your package for order {order} is on its way." in done.answer
    assert await audit_of(support.db.pool, done.audit_id or "") == [
        ("track_shipment_v1", FRONT, "success")
    ]
    # Offered the front role's whitelist (less what the domain keeps from models), never more.
    front = support.ctx.roles[FRONT]
    offered = set(model.bound[0])
    assert offered == {*(front.execute - support.ctx.domain.planning.unplannable), "load_skill"}
    assert "send_notification_v1" not in offered
    # The goal is the customer's request, the reading's ids beside it.
    goal = str(model.calls[0][1].content)
    assert "where is my package" in goal and order in goal
    assert await thread_mode(support.db.checkpointer, done.thread_id) == "react"


async def test_a_cancel_is_confirmed_then_approved_in_a_fresh_process(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=30)
    cancel = ("cancel_pending_order_v1", {"order_id": order, "reason": "ordered by mistake"})
    model = agent_model(
        ToolCalls.of(("get_order_details_v1", {"order_id": order})),
        ToolCalls.of(cancel),
        # "yes": the request is the agent's goal again; the confirmed cancel waits for an operator.
        ToolCalls.of(cancel),
    )
    ctx = react_ctx(support.ctx, model)
    graph = react_graph(support, ctx)
    text = f"please cancel {order}, I ordered it by mistake"
    asked = await run_request(graph, ctx, text=text, user_id=user)
    assert asked.status == "needs_input", asked.trace
    assert asked.question and asked.question["kind"] == "confirm"
    assert order in asked.answer
    waiting = await run_request(graph, ctx, text="yes", user_id=user, thread_id=asked.thread_id)
    assert waiting.status == "interrupted", waiting.trace
    (request,) = waiting.interrupts
    assert request["skill"] == "cancel_pending_order_v1" and request["args"]["order_id"] == order
    assert await order_status(support.db.pool, order) == "pending"
    assert len(model.calls) == 3

    # Another process: a fresh context, graph and model holding only the step after the
    # approved call; asking it for any earlier step would use its script up.
    fresh = await build_support_context(support.db.pool, env={})
    after = agent_model(f"I cancelled order {order}.", name="after-approval")
    fresh = react_ctx(dataclasses.replace(fresh), after)
    done = await resume_thread(
        react_graph(support, fresh), fresh, waiting.thread_id, decision="approve", actor=OPERATOR
    )
    assert done.status == "completed", done.trace
    assert done.mode == "react"
    assert await order_status(support.db.pool, order) == "cancelled"
    assert len(after.calls) == 1 and len(model.calls) == 3
    told = [m for m in after.calls[0] if isinstance(m, ToolMessage)]
    assert "cancelled" in str(told[-1].content)
    assert order in done.answer
    rows = await audit_of(support.db.pool, done.audit_id or "")
    cancels = [status for skill, role, status in rows if skill == cancel[0]]
    assert cancels == ["customer_confirmed", "approval_required", "approved", "success"]
    assert (cancel[0], FRONT, "success") in rows


async def test_without_a_model_react_answers_as_the_support_mode(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=31)
    text = f"where is my package for {order}?"
    ctx = react_ctx(support.ctx, None)
    react = await run_request(graph_of(support, "react", ctx), ctx, text=text, user_id=user)
    fanned = await run_request(graph_of(support, "support"), support.ctx, text=text, user_id=user)
    assert react.status == fanned.status == "completed"
    assert react.mode == "react"
    assert react.answer == fanned.answer and react.plan == fanned.plan
    assert any(line.startswith("planner[rules]") for line in react.trace)


async def test_without_a_model_a_react_cancel_waits_for_the_same_approval(
    support: Support,
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=31)
    ctx = react_ctx(support.ctx, None)
    first = await run_confirmed(
        graph_of(support, "react", ctx), ctx, text=f"cancel {order}, ordered by mistake",
        user_id=user,
    )  # fmt: skip
    assert first.status == "interrupted" and first.mode == "react" and first.turn == 2
    (request,) = first.interrupts
    assert request["skill"] == "cancel_pending_order_v1" and request["args"]["order_id"] == order
    done = await resume_thread(
        graph_of(support, "react", ctx), ctx, first.thread_id, decision="approve", actor=OPERATOR
    )
    assert done.status == "completed" and "cancelled" in done.answer
    assert await order_status(support.db.pool, order) == "cancelled"


async def test_a_model_failing_after_the_approved_write_keeps_the_write(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=32)
    cancel = ("cancel_pending_order_v1", {"order_id": order, "reason": "no longer needed"})
    model = agent_model(ToolCalls.of(cancel), ToolCalls.of(cancel))
    ctx = react_ctx(support.ctx, model)
    graph = react_graph(support, ctx)
    waiting = await run_confirmed(
        graph, ctx, text=f"cancel {order}, I no longer need it", user_id=user
    )
    assert waiting.status == "interrupted", waiting.trace
    # The model is gone after the approval: the loop stops with the cancel done, and the
    # turn does not fall back to the rules (which would plan the cancel again).
    broken = react_ctx(support.ctx, agent_model(RuntimeError("down"), name="gone"))
    done = await resume_thread(
        react_graph(support, broken), broken, waiting.thread_id, decision="approve",
        actor=OPERATOR,
    )  # fmt: skip
    assert done.status == "completed", done.trace
    assert await order_status(support.db.pool, order) == "cancelled"
    assert not any(line.startswith("fallback:") for line in done.trace), done.trace
    rows = await audit_of(support.db.pool, done.audit_id or "")
    assert rows.count((cancel[0], FRONT, "success")) == 1
    # What the agent's results hold is stated (the cancel's refund), marked as partial.
    assert order in done.answer and done.answer.startswith("I stopped before checking")


async def test_the_loops_approval_is_answered_by_another_process(
    support: Support, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=33)
    cancel = ("cancel_pending_order_v1", {"order_id": order, "reason": "no longer needed"})
    model = agent_model(ToolCalls.of(cancel), ToolCalls.of(cancel))
    ctx = react_ctx(support.ctx, model)
    waiting = await run_confirmed(
        react_graph(support, ctx), ctx, text=f"cancel {order}, I no longer need it", user_id=user
    )
    assert waiting.status == "interrupted", waiting.trace
    assert len(model.calls) == 2
    # `rolegraph resume` in its own process, with no model at all: the approved call runs
    # from the checkpoint, once; nothing asks a model for the steps before it.
    done = run_cli(db_env, "resume", waiting.thread_id, "--decision", "approve")
    assert done.returncode == 0, done.stderr
    assert "mode: react" in done.stdout and f"thread {waiting.thread_id}: completed" in done.stdout
    assert await order_status(support.db.pool, order) == "cancelled"
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM audit_events WHERE thread_id = %s AND skill = %s"
            " AND status = 'success'",
            (waiting.thread_id, cancel[0]),
        )
        row = await cur.fetchone()
    assert row is not None and row["n"] == 1
