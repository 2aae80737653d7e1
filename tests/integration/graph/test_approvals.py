"""Human-in-the-loop on the support graph: approve, reject, edit, several at once."""

from __future__ import annotations

import pytest
from langgraph.types import Command

from checkpoints.errors import InvalidArgument
from graphs.api import report, resume_thread
from nodes.identity import AUTH_USER_KEY, Identity
from tests.integration.graph.helpers import OPERATOR, audit_rows, order_status, user_with_orders
from tests.support_fixtures import Support, run_confirmed


async def test_high_risk_cancel_waits_then_runs_once_when_approved(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending")
    first = await run_confirmed(
        support.graph, support.ctx, text=f"please cancel {order}, ordered by mistake", user_id=user
    )
    assert first.status == "interrupted"
    assert [i["kind"] for i in first.interrupts] == ["approval"]
    request = first.interrupts[0]
    assert request["skill"] == "cancel_pending_order_v1"
    assert request["args"] == {"order_id": order, "reason": "ordered by mistake"}
    assert await order_status(support.db.pool, order) == "pending"  # nothing ran yet

    done = await resume_thread(
        support.graph, support.ctx, first.thread_id, decision="approve", actor=OPERATOR
    )
    assert done.status == "completed"
    assert await order_status(support.db.pool, order) == "cancelled"
    assert "cancelled" in done.answer
    rows = await audit_rows(support.db.pool, done.audit_id or "", "cancel_pending_order_v1")
    # The customer's yes, then the operator's decision, are links of the audit chain
    # between the stop and the run.
    statuses = [r["status"] for r in rows]
    assert statuses == ["customer_confirmed", "approval_required", "approved", "success"]
    assert rows[2]["approval_id"] == rows[3]["approval_id"] == request["id"]
    # Rows carry the graph superstep: the approved run is later than the stop.
    assert 0 < rows[1]["step"] < rows[3]["step"]
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT decided_by, used_by IS NOT NULL AS used FROM approvals WHERE request_id = %s",
            (request["id"],),
        )
        assert await cur.fetchone() == {"decided_by": OPERATOR.label, "used": True}


async def test_only_an_operator_can_answer_an_approval(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=3)
    first = await run_confirmed(
        support.graph, support.ctx, text=f"cancel {order}, ordered by mistake", user_id=user
    )
    customer = Identity("customer", user)
    with pytest.raises(InvalidArgument, match="only an operator can"):
        await resume_thread(
            support.graph, support.ctx, first.thread_id, decision="approve", actor=customer
        )
    # A customer resuming the graph directly (as any LangGraph client could) is refused too.
    config = {
        "configurable": {"thread_id": first.thread_id, AUTH_USER_KEY: customer.as_auth_user()}
    }
    await support.graph.ainvoke(
        Command(resume={first.interrupts[0]["id"]: {"decision": "approve"}}),
        config,
        context=support.ctx,
    )
    assert await order_status(support.db.pool, order) == "pending"
    still = await report(support.graph, first.thread_id)
    assert still.status == "interrupted" and still.interrupts[0]["id"] == first.interrupts[0]["id"]
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT detail FROM audit_events WHERE thread_id = %s AND status = 'approval_refused'",
            (first.thread_id,),
        )
        assert [r["detail"]["by"] for r in await cur.fetchall()] == [customer.label]


async def test_rejected_request_changes_nothing_and_says_so(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=1)
    first = await run_confirmed(
        support.graph, support.ctx, text=f"cancel order {order[1:]}", user_id=user
    )
    assert first.status == "interrupted"
    done = await resume_thread(
        support.graph, support.ctx, first.thread_id, decision="reject", actor=OPERATOR
    )
    assert await order_status(support.db.pool, order) == "pending"
    assert "rejected" in done.answer and "nothing was changed" in done.answer
    assert done.status == "completed"


async def test_edited_args_are_revalidated_and_run(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=2)
    first = await run_confirmed(
        support.graph, support.ctx, text=f"cancel {order} please", user_id=user
    )
    request = first.interrupts[0]
    with pytest.raises(InvalidArgument, match="not valid for cancel_pending_order_v1"):
        await resume_thread(
            support.graph, support.ctx, first.thread_id, decision="edit",
            args={"order_id": order, "reason": "because I said so"}, actor=OPERATOR,
        )  # fmt: skip
    _, (theirs,) = await user_with_orders(support.db.pool, "pending", skip=13)
    with pytest.raises(InvalidArgument, match="keep the record it acts on"):
        await resume_thread(
            support.graph, support.ctx, first.thread_id, decision="edit",
            args={"order_id": theirs, "reason": "no longer needed"}, actor=OPERATOR,
        )  # fmt: skip
    with pytest.raises(InvalidArgument, match="edit needs the edited arguments"):
        await resume_thread(
            support.graph, support.ctx, first.thread_id, decision="edit", args={}, actor=OPERATOR
        )
    with pytest.raises(InvalidArgument, match="approve takes no arguments"):
        await resume_thread(
            support.graph, support.ctx, first.thread_id, decision="approve",
            args={"order_id": order, "reason": "no longer needed"}, actor=OPERATOR,
        )  # fmt: skip
    # An invalid edit never runs: the order stays pending and the request can still be answered.
    assert await order_status(support.db.pool, order) == "pending"
    assert (await report(support.graph, first.thread_id)).status == "interrupted"
    assert request["args"]["reason"] == "no longer needed"
    done = await resume_thread(
        support.graph, support.ctx, first.thread_id, decision="edit",
        args={"order_id": order, "reason": "ordered by mistake"}, actor=OPERATOR,
    )  # fmt: skip
    assert done.status == "completed" and await order_status(support.db.pool, order) == "cancelled"
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT status, decided_args FROM approvals WHERE request_id = %s", (request["id"],)
        )
        # The row records exactly what ran.
        assert await cur.fetchone() == {
            "status": "edited",
            "decided_args": {"order_id": order, "reason": "ordered by mistake"},
        }


async def test_several_approvals_are_asked_in_one_interrupt_and_answered_by_id(
    support: Support,
) -> None:
    user, orders = await user_with_orders(support.db.pool, "pending", count=2)
    text = f"cancel {orders[0]} and {orders[1]}, I no longer need them"
    first = await run_confirmed(support.graph, support.ctx, text=text, user_id=user)
    assert first.status == "interrupted"
    assert len(first.interrupts) == 2
    by_order = {i["args"]["order_id"]: i["id"] for i in first.interrupts}
    partial = await resume_thread(
        support.graph,
        support.ctx,
        first.thread_id,
        decision="approve",
        request_id=by_order[orders[0]],
        actor=OPERATOR,
    )
    # The unanswered request is asked again, alone.
    assert partial.status == "interrupted"
    assert [i["id"] for i in partial.interrupts] == [by_order[orders[1]]]
    done = await resume_thread(
        support.graph,
        support.ctx,
        first.thread_id,
        decision="reject",
        request_id=by_order[orders[1]],
        actor=OPERATOR,
    )
    assert done.status == "completed"
    assert await order_status(support.db.pool, orders[0]) == "cancelled"
    assert await order_status(support.db.pool, orders[1]) == "pending"


async def test_explicit_handoff_is_an_escalation_the_human_answers(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "delivered")
    first = await run_confirmed(support.graph, support.ctx, text="我要转人工客服", user_id=user)
    assert first.status == "interrupted"
    assert first.interrupts[0]["kind"] == "escalation"
    done = await resume_thread(
        support.graph,
        support.ctx,
        first.thread_id,
        decision="reply",
        message="We will call you today.",
        actor=OPERATOR,
    )
    assert done.status == "completed"
    assert "We will call you today." in done.answer
    assert (await report(support.graph, first.thread_id)).interrupts == []


async def test_an_operator_named_like_the_customer_cannot_approve(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=12)
    first = await run_confirmed(
        support.graph, support.ctx, text=f"cancel {order}, ordered by mistake", user_id=user
    )
    with pytest.raises(InvalidArgument, match="cannot approve their own request"):
        await resume_thread(
            support.graph, support.ctx, first.thread_id, decision="approve",
            actor=Identity("operator", user),
        )  # fmt: skip
    assert await order_status(support.db.pool, order) == "pending"
