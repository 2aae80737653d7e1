"""An operator's decision and a customer's confirmation, queued like any turn."""

from __future__ import annotations

from procrastinate import App

from graphs.jobs import TurnFailed, TurnRequest, run_queued
from nodes.identity import Identity
from tests.integration.jobs.workers import fetch_all, pick_order, workers
from tests.support_fixtures import Support

WAIT_S = 240.0
OPERATOR = Identity("operator", "queue_tester")


async def test_a_cancel_is_confirmed_and_approved_through_the_queue(
    support: Support, queue: App, db_env: dict[str, str]
) -> None:
    order_id, user_id = await pick_order(support.db, "pending")
    pool = support.db.pool
    ask = TurnRequest.new_turn(f"Please cancel order {order_id}, I ordered it by mistake", user_id)
    with workers(db_env):
        asked = await run_queued(queue, pool, ask, timeout_s=WAIT_S)
        assert asked.report.status == "needs_input", asked.report
        yes = TurnRequest.new_turn("yes", user_id, thread_id=ask.thread_id)
        waiting = await run_queued(queue, pool, yes, timeout_s=WAIT_S)
        assert waiting.report.status == "interrupted", waiting.report
        try:
            await run_queued(
                queue, pool, TurnRequest.resume(ask.thread_id, OPERATOR, "maybe"),
                timeout_s=WAIT_S,
            )  # fmt: skip
        except TurnFailed as exc:
            assert "unknown decision 'maybe'" in str(exc) and exc.exit_code == 2
        else:
            raise AssertionError("an unknown decision was accepted")
        approve = TurnRequest.resume(ask.thread_id, OPERATOR, "approve")
        done = await run_queued(queue, pool, approve, timeout_s=WAIT_S)
    assert done.report.status == "completed", done.report
    assert any(line.startswith("approval:") for line in done.progress), done.progress
    rows = await fetch_all(support.db, "SELECT status FROM orders WHERE order_id = %s", order_id)
    assert rows[0]["status"] == "cancelled"
