"""A worker killed with SIGKILL in a turn's write window: another worker completes the
turn exactly once, continuing the thread from its last checkpoint."""

from __future__ import annotations

import asyncio

import pytest
from procrastinate import App

from graphs.jobs import TurnRequest, submit_turn, wait_turn
from tests.integration.jobs.workers import fetch_all, start_worker, stop_worker, workers
from tests.support_fixtures import Support

WAIT_S = 240.0
_DONE = ("success", "replayed")
_DELAYED = """
SELECT o.order_id, o.user_id FROM shipments s
JOIN fulfillment_tracking_ids t ON t.tracking_id = s.tracking_id
JOIN orders o ON o.order_id = t.order_id
WHERE s.status = 'delayed' AND o.status = 'processed' ORDER BY o.order_id LIMIT 1
"""


@pytest.mark.parametrize("crash_at", ["after_ledger_claim", "after_effect_commit"])
async def test_a_killed_workers_turn_completes_once_on_another(
    support: Support, queue: App, db_env: dict[str, str], crash_at: str
) -> None:
    subject = (await fetch_all(support.db, _DELAYED))[0]
    user_id, order_id = subject["user_id"], subject["order_id"]
    sent_before = await _notifications(support, user_id)
    doomed = start_worker({**db_env, "ROLEGRAPH_CRASH_AT": crash_at})
    request = TurnRequest.new_turn(f"Where is my order {order_id} and email me the status", user_id)
    job = await submit_turn(queue, request)
    code = await asyncio.to_thread(doomed.wait, WAIT_S)
    _, _, err = stop_worker(doomed)
    assert code == -9, err
    with workers(db_env):
        done = await wait_turn(support.db.pool, job, timeout_s=WAIT_S)
    report = done.report
    assert report.status == "completed", report
    assert report.turn == 1  # continued, not run again as a second turn
    assert await _notifications(support, user_id) == sent_before + 1
    ledger = await fetch_all(
        support.db, "SELECT skill, state, count(*) AS n FROM idempotency_ledger"
        " WHERE run_id = %s GROUP BY 1, 2", report.audit_id,
    )  # fmt: skip
    assert ledger and all(r["state"] == "succeeded" and r["n"] == 1 for r in ledger), ledger
    audited = await fetch_all(
        support.db, "SELECT skill, status FROM audit_events WHERE audit_id = %s"
        " AND skill = ANY(%s) ORDER BY id", report.audit_id, [r["skill"] for r in ledger],
    )  # fmt: skip
    # The audit chain shows each write once: run (`success`), or, when the first worker
    # died after its commit, answered from the ledger (`replayed`), never both or twice.
    for skill in {r["skill"] for r in ledger}:
        done_rows = [a for a in audited if a["skill"] == skill and a["status"] in _DONE]
        assert len(done_rows) == 1, audited
    turns = await fetch_all(
        support.db, "SELECT count(*) AS n FROM rolegraph_turn_jobs WHERE thread_id = %s",
        request.thread_id,
    )  # fmt: skip
    assert turns[0]["n"] == 1


async def _notifications(support: Support, user_id: str) -> int:
    rows = await fetch_all(
        support.db, "SELECT count(*) AS n FROM notifications WHERE user_id = %s", user_id
    )
    return int(rows[0]["n"])
