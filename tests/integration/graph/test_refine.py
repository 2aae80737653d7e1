"""Refinement: a transiently failing step is retried, then escalated to a human."""

from __future__ import annotations

from typing import Any

from graphs.api import compile_support, resume_thread, run_request
from nodes.context import SupportContext
from skills.errors import UpstreamNetworkError
from tests.integration.graph.helpers import OPERATOR, user_with_orders, with_executor
from tests.support_fixtures import Support


class _Down:
    """An executor whose upstream is unreachable; counts the attempts."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.calls = 0

    def validate_input(self, args: Any) -> dict[str, Any]:
        return dict(self.real.validate_input(args))

    async def execute(self, args: dict[str, Any], ctx: Any) -> Any:
        self.calls += 1
        raise UpstreamNetworkError("carrier API unreachable")

    async def rollback(self, args: dict[str, Any], ctx: Any, payload: Any) -> None:
        return None


def _with_broken(support: Support, skill_id: str) -> tuple[SupportContext, _Down]:
    down = _Down(next(s for s in support.ctx.registry if s.skill_id == skill_id).executor)
    return with_executor(support, skill_id, down), down


async def test_failing_step_is_retried_then_escalated_and_the_human_reply_answers(
    support: Support,
) -> None:
    ctx, down = _with_broken(support, "get_order_details_v1")
    graph = compile_support(ctx, support.db.checkpointer)
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=3)
    first = await run_request(graph, ctx, text=f"what is the status of {order}?", user_id=user)

    assert first.status == "interrupted"
    assert [i["kind"] for i in first.interrupts] == ["escalation"]
    assert "get_order_details_v1 (network_error)" in first.interrupts[0]["reason"]
    # Two task attempts, each with the runtime's own retries (1 + 3).
    assert down.calls == 8
    assert any("refine round 1: retry t1" in line for line in first.trace)

    done = await resume_thread(
        graph,
        ctx,
        first.thread_id,
        decision="reply",
        message="The order system is back at noon.",
        actor=OPERATOR,
    )
    assert done.status == "failed"  # the one step never succeeded
    assert "The order system is back at noon." in done.answer
    assert "could not complete get order details" in done.answer


async def test_step_that_cannot_recover_is_replanned_around(support: Support) -> None:
    ctx, down = _with_broken(support, "track_shipment_v1")
    graph = compile_support(ctx, support.db.checkpointer)
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=4)
    result = await run_request(graph, ctx, text=f"track my package for {order}", user_id=user)

    assert result.status == "completed"
    assert down.calls == 8  # retried first, replanned only when retries were spent
    assert any("replan around ['t1']" in line for line in result.trace)
    assert [t["skill"] for t in result.plan] == [
        "track_shipment_v1",
        "calculate_eta_v1",
        "get_order_details_v1",
    ]
    assert f"Order {order} is processed" in result.answer
    assert "could not complete track shipment" in result.answer
