"""A retail write the store declines is a completed answer with its reason and the
alternative; nobody is asked to confirm or approve it and nothing is retried
(issue 10 §3). On the generated reference data, through the real graph."""

from __future__ import annotations

from typing import Any

from graphs.api import RunReport, compile_support, resume_thread, run_request
from skills.errors import DomainError
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders, with_executor
from tests.support_fixtures import Support


async def _run(support: Support, user: str, text: str) -> RunReport:
    return await run_request(support.graph, support.ctx, text=text, user_id=user)


def _no_gate(report: RunReport) -> None:
    assert report.question is None and report.interrupts == [], report.trace
    assert not any("refine" in line for line in report.trace), report.trace
    assert "could not complete" not in report.answer and "没能完成" not in report.answer


async def test_cancelling_a_delivered_order_explains_and_offers_a_return(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "delivered", skip=2)
    report = await _run(support, user, f"Cancel order {order}")
    assert report.status == "completed", report.trace
    assert f"Order {order} has already been delivered, so it cannot be cancelled" in report.answer
    assert "you can return or exchange its items instead" in report.answer
    _no_gate(report)
    assert await order_status(support.db.pool, order) == "delivered"


async def test_cancelling_a_shipped_order_says_it_can_be_returned_after_delivery(
    support: Support,
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=2)
    report = await _run(support, user, f"取消订单{order}")
    assert report.status == "completed", report.trace
    assert f"订单 {order} 已经发货，无法再取消；送达后您可以申请退货。" in report.answer
    _no_gate(report)


async def test_returning_a_pending_or_cancelled_order_explains_why(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=2)
    pending = await _run(support, user, f"I want to return order {order}")
    assert pending.status == "completed", pending.trace
    assert f"Order {order} has not shipped yet, so it cannot be returned" in pending.answer
    assert "you can cancel it instead" in pending.answer
    _no_gate(pending)
    user, (order,) = await user_with_orders(support.db.pool, "cancelled", skip=2)
    cancelled = await _run(support, user, f"cancel order {order} please")
    assert cancelled.status == "completed", cancelled.trace
    assert f"Order {order} is already cancelled; there is nothing left to cancel." in (
        cancelled.answer
    )


class _AlreadyShipped:
    """The cancel tool finding the order no longer pending (it shipped after the read)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.calls = 0

    def validate_input(self, args: Any) -> dict[str, Any]:
        return dict(self.real.validate_input(args))

    async def execute(self, args: dict[str, Any], ctx: Any) -> Any:
        self.calls += 1
        raise DomainError("Non-pending order cannot be cancelled")

    async def rollback(self, args: dict[str, Any], ctx: Any, payload: Any) -> None:
        return None


async def test_the_tools_own_refusal_after_approval_is_a_completed_answer(
    support: Support,
) -> None:
    real = support.ctx.registry.get("cancel_pending_order_v1").executor
    tool = _AlreadyShipped(real)
    ctx = with_executor(support, "cancel_pending_order_v1", tool)
    graph = compile_support(ctx, support.db.checkpointer)
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=5)
    asked = await run_request(graph, ctx, text=f"cancel {order}, ordered by mistake", user_id=user)
    assert asked.status == "needs_input", asked.trace
    confirmed = await run_request(graph, ctx, text="yes", user_id=user, thread_id=asked.thread_id)
    assert confirmed.status == "interrupted", confirmed.trace
    done = await resume_thread(graph, ctx, asked.thread_id, decision="approve", actor=OPERATOR)
    assert done.status == "completed", done.trace
    assert f"Order {order} is no longer pending, so it can no longer be cancelled" in done.answer
    assert "Non-pending" not in done.answer  # the tool's own text stays in the audit trail
    assert tool.calls == 1  # a business refusal is never retried
    assert await order_status(support.db.pool, order) == "pending"
