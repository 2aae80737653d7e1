"""The plan_execute mode on reference data: the golden paths, one step at a time, replans."""

from __future__ import annotations

from typing import Any

import pytest

from checkpoints.errors import InvalidArgument
from graphs.api import compile_support, resume_thread, run_request
from graphs.modes import MODE_KEY, thread_mode
from skills.errors import UpstreamNetworkError
from tests.integration.graph.helpers import (
    OPERATOR,
    audit_rows,
    order_status,
    user_with_orders,
    with_executor,
)
from tests.integration.modes.helpers import graph_of, intake, plan, role_steps, with_model
from tests.support_fixtures import Support, run_confirmed


async def test_a_read_completes_as_in_the_support_mode(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=20)
    text = f"where is my package for {order}?"
    stepped = await run_request(
        graph_of(support, "plan_execute"), support.ctx, text=text, user_id=user
    )
    fanned = await run_request(graph_of(support, "support"), support.ctx, text=text, user_id=user)
    assert stepped.status == fanned.status == "completed"
    assert stepped.mode == "plan_execute" and fanned.mode == "support"
    assert stepped.answer == fanned.answer
    assert stepped.plan == fanned.plan
    assert await thread_mode(support.db.checkpointer, stepped.thread_id) == "plan_execute"


async def test_a_cancel_is_confirmed_approved_and_runs_once(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=20)
    graph = graph_of(support, "plan_execute")
    first = await run_confirmed(
        graph, support.ctx, text=f"please cancel {order}, ordered by mistake", user_id=user
    )
    assert first.status == "interrupted" and first.turn == 2  # the customer said yes first
    (request,) = first.interrupts
    assert request["kind"] == "approval" and request["skill"] == "cancel_pending_order_v1"
    assert await order_status(support.db.pool, order) == "pending"

    done = await resume_thread(
        graph, support.ctx, first.thread_id, decision="approve", actor=OPERATOR
    )
    assert done.status == "completed" and "cancelled" in done.answer
    assert await order_status(support.db.pool, order) == "cancelled"
    rows = await audit_rows(support.db.pool, done.audit_id or "", "cancel_pending_order_v1")
    assert [r["status"] for r in rows] == [
        "customer_confirmed",
        "approval_required",
        "approved",
        "success",
    ]


async def test_a_thread_is_resumed_in_the_mode_that_started_it(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=21)
    first = await run_confirmed(
        graph_of(support, "plan_execute"), support.ctx, text=f"cancel {order}, ordered by mistake",
        user_id=user,
    )  # fmt: skip
    assert first.status == "interrupted" and first.mode == "plan_execute"
    # A worker or an inbox holds the default mode's graph: the thread still runs in its own.
    done = await resume_thread(
        graph_of(support, "support"), support.ctx, first.thread_id, decision="approve",
        actor=OPERATOR,
    )  # fmt: skip
    assert done.status == "completed" and done.mode == "plan_execute"
    assert await order_status(support.db.pool, order) == "cancelled"
    config = {"configurable": {"thread_id": done.thread_id}}
    stamps = {c.metadata.get(MODE_KEY) async for c in support.db.checkpointer.alist(config)}
    assert stamps == {"plan_execute"}


def test_an_unknown_mode_names_the_choices(support: Support) -> None:
    with pytest.raises(
        InvalidArgument, match=r"^unknown mode 'nope'; choose one of: support, plan_execute, react$"
    ):
        compile_support(support.ctx, mode="nope")


def _two_reads(order: str) -> str:
    # Two reads that need nothing of each other, and the ETA after the tracking.
    return plan(
        ("look", "order_query", "get_order_details_v1", {"order_id": order}, []),
        ("track", "logistics_analyst", "track_shipment_v1", {"order_id": order}, []),
        ("eta", "logistics_analyst", "calculate_eta_v1", {"order_id": order}, ["track"]),
    )


@pytest.mark.parametrize(("mode", "widest"), [("plan_execute", 1), ("support", 2)])
async def test_steps_run_one_at_a_time(support: Support, mode: str, widest: int) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=21)
    ctx, _ = with_model(support.ctx, intake("track_shipment", order), _two_reads(order))
    graph = graph_of(support, mode, ctx)
    done = await run_request(graph, ctx, text=f"Where is my order {order}? track it", user_id=user)
    assert done.status == "completed"
    assert [t["id"] for t in done.plan] == ["look", "track", "eta"]
    steps = await role_steps(graph, done.thread_id)
    assert max(len(s) for s in steps) == widest
    if mode == "plan_execute":
        assert steps == [
            ["role_order_query"],
            ["role_logistics_analyst"],
            ["role_logistics_analyst"],
        ]


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


def _broken(support: Support, skill_id: str) -> tuple[Any, _Down]:
    down = _Down(next(s for s in support.ctx.registry if s.skill_id == skill_id).executor)
    return with_executor(support, skill_id, down), down


async def test_a_failed_step_is_replanned_by_the_model(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=22)
    broken, down = _broken(support, "track_shipment_v1")
    first_plan = plan(
        ("track", "logistics_analyst", "track_shipment_v1", {"order_id": order}, []),
        ("eta", "logistics_analyst", "calculate_eta_v1", {"order_id": order}, ["track"]),
    )
    around = plan(("look", "order_query", "get_order_details_v1", {"order_id": order}, []))
    ctx, model = with_model(broken, intake("track_shipment", order), first_plan, around)
    graph = graph_of(support, "plan_execute", ctx)
    done = await run_request(graph, ctx, text=f"track my package for {order}", user_id=user)
    assert done.status == "completed"
    assert "replan[large]: around ['track']; to run ['look']" in done.trace
    assert down.calls == 4  # one attempt (the runtime's own retries), then the replan
    assert [t["id"] for t in done.plan] == ["track", "look"]
    assert f"Order {order} is processed" in done.answer
    replan_prompt = model.calls[2][-1].content
    assert "track logistics_analyst/track_shipment_v1 failed (network_error)" in replan_prompt


async def test_without_a_model_a_failed_step_is_refined_as_in_support(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=23)
    ctx, down = _broken(support, "track_shipment_v1")
    graph = graph_of(support, "plan_execute", ctx)
    done = await run_request(graph, ctx, text=f"track my package for {order}", user_id=user)
    assert done.status == "completed"
    assert "replan: refinement decides" in done.trace
    assert any("replan around ['t1']" in line for line in done.trace)
    assert down.calls == 8  # retried first, then the rules replan
    assert f"Order {order} is processed" in done.answer


async def test_a_replan_that_adds_a_write_is_refused(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=24)
    broken, _ = _broken(support, "track_shipment_v1")
    first_plan = plan(("track", "logistics_analyst", "track_shipment_v1", {"order_id": order}, []),
                      ("eta", "logistics_analyst", "calculate_eta_v1", {"order_id": order}, ["track"]))  # fmt: skip
    cancel = {"order_id": order, "reason": "no longer needed"}
    hostile = plan(("x", "billing_specialist", "cancel_pending_order_v1", cancel, []))
    # Both replans the bound allows add the cancel.
    ctx, _ = with_model(broken, intake("track_shipment", order), first_plan, hostile, hostile)
    graph = graph_of(support, "plan_execute", ctx)
    done = await run_request(graph, ctx, text=f"track my package for {order}", user_id=user)
    assert not done.interrupts
    assert "replan: refinement decides" in done.trace
    assert await audit_rows(support.db.pool, done.audit_id or "", "cancel_pending_order_v1") == []


async def test_model_replans_are_bounded_then_refinement_decides(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=25)
    broken, _ = _broken(support, "track_shipment_v1")

    def track(task_id: str) -> str:
        return plan((task_id, "logistics_analyst", "track_shipment_v1", {"order_id": order}, []))

    # The first plan drops the rules' ETA read, so the rules plan runs (its tracking is
    # t1); each replan tries the tracking again, under a new id; it keeps failing.
    script = (intake("track_shipment", order), track("a"), track("b"), track("c"))
    ctx, model = with_model(broken, *script)
    graph = graph_of(support, "plan_execute", ctx)
    done = await run_request(graph, ctx, text=f"track my package for {order}", user_id=user)
    replans = [line for line in done.trace if line.startswith("replan[large]:")]
    assert replans == [
        "replan[large]: around ['t1']; to run ['b']",
        "replan[large]: around ['b']; to run ['c']",
    ]
    assert "replan: refinement decides" in done.trace
    assert len(model.calls) == 4  # no third replan was asked
