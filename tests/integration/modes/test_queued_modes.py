"""Turn jobs name the mode a new thread starts in; workers run every thread in its own."""

from __future__ import annotations

from procrastinate import App

from graphs.jobs import TurnRequest, run_queued
from graphs.modes import MODE_KEY
from nodes.identity import Identity
from tests.integration.jobs.workers import pick_order, workers
from tests.support_fixtures import Support

WAIT_S = 240.0
OPERATOR = Identity("operator", "queue_tester")


async def test_a_plan_execute_cancel_runs_through_the_queue(
    support: Support, queue: App, db_env: dict[str, str]
) -> None:
    order_id, user_id = await pick_order(support.db, "pending")
    pool = support.db.pool
    ask = TurnRequest.new_turn(
        f"Please cancel order {order_id}, I ordered it by mistake", user_id, mode="plan_execute"
    )
    with workers(db_env):
        asked = await run_queued(queue, pool, ask, timeout_s=WAIT_S)
        assert asked.report.status == "needs_input" and asked.report.mode == "plan_execute"
        # Neither the yes nor the decision names a mode: the thread keeps its own.
        yes = TurnRequest.new_turn("yes", user_id, thread_id=ask.thread_id)
        waiting = await run_queued(queue, pool, yes, timeout_s=WAIT_S)
        assert waiting.report.status == "interrupted", waiting.report
        approve = TurnRequest.resume(ask.thread_id, OPERATOR, "approve")
        done = await run_queued(queue, pool, approve, timeout_s=WAIT_S)
    assert done.report.status == "completed" and done.report.mode == "plan_execute"
    config = {"configurable": {"thread_id": ask.thread_id}}
    stamps = {c.metadata.get(MODE_KEY) async for c in support.db.checkpointer.alist(config)}
    assert stamps == {"plan_execute"}
