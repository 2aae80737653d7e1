"""Resume values from outside, threads reused by another customer, races and recovered
dependencies."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langgraph.types import Command

from checkpoints.errors import InvalidArgument
from graphs.api import compile_support, report, resume_thread, run_request
from nodes.identity import AUTH_USER_KEY, Identity
from nodes.intake.customer import REFUSE_OTHER_CUSTOMER
from skills.errors import UpstreamNetworkError
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders, with_executor
from tests.support_fixtures import Support, run_confirmed


def _config(thread_id: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}}


async def _pending_cancel(support: Support, skip: int) -> tuple[str, str, Any]:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=skip)
    first = await run_confirmed(support.graph, support.ctx, text=f"cancel {order}", user_id=user)
    assert first.status == "interrupted"
    return user, order, first


async def test_malformed_resume_is_refused_and_the_thread_stays_resumable(support: Support) -> None:
    _, order, first = await _pending_cancel(support, skip=10)
    with pytest.raises(InvalidArgument, match="unknown decision 'approved'; use approve, reject"):
        await resume_thread(
            support.graph, support.ctx, first.thread_id, decision="approved", actor=OPERATOR
        )
    with pytest.raises(InvalidArgument, match="answer it with --decision approve, reject or edit"):
        await resume_thread(
            support.graph,
            support.ctx,
            first.thread_id,
            decision="reply",
            message="hi",
            actor=OPERATOR,
        )
    # A raw, invalid resume (as Studio or the SDK could send) is asked again, not wedged.
    await support.graph.ainvoke(
        Command(resume={first.interrupts[0]["id"]: {"decision": "yes"}}),
        _config(first.thread_id),
        context=support.ctx,
    )
    again = await report(support.graph, first.thread_id)
    assert again.status == "interrupted" and again.interrupts == first.interrupts
    done = await resume_thread(
        support.graph, support.ctx, first.thread_id, decision="approve", actor=OPERATOR
    )
    assert done.status == "completed"
    assert await order_status(support.db.pool, order) == "cancelled"


async def test_edit_needs_a_request_id_when_several_wait(support: Support) -> None:
    user, orders = await user_with_orders(support.db.pool, "pending", count=2, skip=3)
    first = await run_confirmed(
        support.graph, support.ctx, text=f"cancel {orders[0]} and {orders[1]}", user_id=user
    )
    assert len(first.interrupts) == 2
    with pytest.raises(InvalidArgument, match="name the one to edit"):
        await resume_thread(
            support.graph, support.ctx, first.thread_id, decision="edit",
            args={"order_id": orders[0], "reason": "no longer needed"}, actor=OPERATOR,
        )  # fmt: skip
    assert [await order_status(support.db.pool, o) for o in orders] == ["pending", "pending"]


async def test_another_customers_turn_on_a_used_thread_is_refused(support: Support) -> None:
    me, (mine,) = await user_with_orders(support.db.pool, "delivered", skip=4)
    other, (theirs,) = await user_with_orders(support.db.pool, "processed", skip=4)
    first = await run_confirmed(support.graph, support.ctx, text=f"status of {mine}?", user_id=me)
    assert first.status == "completed" and mine in first.answer
    # Studio / SDK style: new input on the same thread, as another customer.
    config = _config(first.thread_id)
    config["configurable"][AUTH_USER_KEY] = Identity("customer", other).as_auth_user()
    await support.graph.ainvoke(
        {"text": f"status of {theirs}?", "user_id": other}, config, context=support.ctx
    )
    second = await report(support.graph, first.thread_id)
    assert second.status == "refused" and second.turn == 2
    assert second.answer == REFUSE_OTHER_CUSTOMER.en
    assert second.user_id == me  # the thread stays its first customer's
    assert theirs not in second.answer and mine not in second.answer
    assert not second.plan  # nothing of turn 1 is left, nothing of turn 2 was planned


async def test_input_without_a_customer_is_refused_not_crashed(support: Support) -> None:
    await support.graph.ainvoke(
        {"text": "where is my order"}, _config("no-user"), context=support.ctx
    )
    result = await report(support.graph, "no-user")
    assert result.status == "refused"


async def test_concurrent_resumes_of_one_thread_cannot_both_run(support: Support) -> None:
    _, order, first = await _pending_cancel(support, skip=11)
    outcomes = await asyncio.gather(
        resume_thread(
            support.graph, support.ctx, first.thread_id, decision="approve", actor=OPERATOR
        ),
        resume_thread(
            support.graph, support.ctx, first.thread_id, decision="reject", actor=OPERATOR
        ),
        return_exceptions=True,
    )
    winners = [o for o in outcomes if not isinstance(o, BaseException)]
    losers = [o for o in outcomes if isinstance(o, InvalidArgument)]
    assert len(winners) == 1 and len(losers) == 1
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT status FROM approvals WHERE request_id = %s", (first.interrupts[0]["id"],)
        )
        decided = (await cur.fetchone())["status"]  # type: ignore[index]
    cancelled = await order_status(support.db.pool, order) == "cancelled"
    assert (decided == "approved") == cancelled


class _FlakyOnce:
    """Fails every attempt of the first call, then works (a transient outage)."""

    def __init__(self, real: Any, failures: int) -> None:
        self.real = real
        self.failures = failures

    def validate_input(self, args: Any) -> dict[str, Any]:
        return dict(self.real.validate_input(args))

    async def execute(self, args: dict[str, Any], ctx: Any) -> Any:
        if self.failures > 0:
            self.failures -= 1
            raise UpstreamNetworkError("order service restarting")
        return await self.real.execute(args, ctx)

    async def rollback(self, args: dict[str, Any], ctx: Any, payload: Any) -> None:
        return None


async def test_steps_skipped_behind_a_retried_step_run_once_it_recovers(support: Support) -> None:
    target = support.ctx.registry.get("get_order_details_v1")
    flaky = _FlakyOnce(target.executor, failures=4)  # one call: first try + 3 retries
    ctx = with_executor(support, "get_order_details_v1", flaky)
    graph = compile_support(ctx, support.db.checkpointer)
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=12)

    asked = await run_request(
        graph, ctx, text=f"please cancel {order}, ordered by mistake", user_id=user
    )
    # The cancel was reached (its confirmation asked), not silently skipped.
    assert asked.status == "needs_input" and asked.question and order in asked.question["text"]
    assert any("refine round 1: retry t1" in line for line in asked.trace)
    first = await run_request(graph, ctx, text="yes", user_id=user, thread_id=asked.thread_id)
    assert first.status == "interrupted"
    assert first.interrupts[0]["skill"] == "cancel_pending_order_v1"


async def test_more_concurrent_requests_than_pooled_connections_all_finish(
    support: Support,
) -> None:
    # The per-thread lock lives on a connection of its own, so requests that
    # outnumber the pool queue for it briefly instead of deadlocking it.
    size = support.db.pool.max_size
    user, (order,) = await user_with_orders(support.db.pool, "delivered")
    results = await asyncio.gather(
        *(
            run_request(
                support.graph, support.ctx, text=f"what is the status of {order}?", user_id=user
            )
            for _ in range(size + 4)
        )
    )
    assert [r.status for r in results] == ["completed"] * (size + 4)
