"""Turns submitted to the queue and run by `rolegraph worker` processes."""

from __future__ import annotations

import asyncio
import json
import re

from procrastinate import App

from graphs.jobs import TurnRequest, submit_turn, submit_turns, wait_turn, wait_turns
from tests.cli import run_cli
from tests.integration.jobs.workers import fetch_all, pick_order, workers
from tests.support_fixtures import Support

WAIT_S = 240.0


async def test_a_queued_read_turn_completes(
    support: Support, queue: App, db_env: dict[str, str]
) -> None:
    order_id, user_id = await pick_order(support.db, "pending")
    with workers(db_env):
        job = await submit_turn(
            queue, TurnRequest.new_turn(f"Where is my order {order_id}?", user_id)
        )
        done = await wait_turn(support.db.pool, job, timeout_s=WAIT_S)
    assert done.report.status == "completed", done.report
    assert order_id in done.report.answer
    assert done.report.turn == 1
    assert done.progress and done.progress[0].startswith("turn 1: audit ")
    # The worker ran it through the graph: the thread is checkpointed and audited.
    audited = await fetch_all(
        support.db, "SELECT count(*) AS n FROM audit_events WHERE thread_id = %s",
        done.report.thread_id,
    )  # fmt: skip
    assert audited[0]["n"] > 0


async def test_two_queued_turns_of_one_thread_run_one_after_the_other(
    support: Support, queue: App, db_env: dict[str, str]
) -> None:
    order_id, user_id = await pick_order(support.db, "pending")
    first = TurnRequest.new_turn(f"Where is my order {order_id}?", user_id)
    second = TurnRequest.new_turn(
        f"And what is in order {order_id}?", user_id, thread_id=first.thread_id
    )
    # Both are queued in one batch before any worker runs, and two workers could take one each.
    jobs = await submit_turns(queue, [first, second])
    with workers(db_env, 2):
        done = await wait_turns(support.db.pool, jobs, timeout_s=WAIT_S)
    assert sorted(done) == sorted(jobs)
    assert [done[j].report.turn for j in jobs] == [1, 2]
    spans = await fetch_all(
        support.db, "SELECT job_id, started_at, finished_at FROM rolegraph_turn_jobs"
        " WHERE job_id = ANY(%s) ORDER BY job_id", jobs,
    )  # fmt: skip
    assert spans[1]["started_at"] >= spans[0]["finished_at"], spans


async def test_run_queue_prints_what_run_prints(support: Support, db_env: dict[str, str]) -> None:
    order_id, user_id = await pick_order(support.db, "pending")
    args = ("run", "--user-id", user_id, f"Where is my order {order_id}?")
    direct = await asyncio.to_thread(run_cli, db_env, *args)
    with workers(db_env):
        queued = await asyncio.to_thread(run_cli, db_env, *args, "--queue")
        as_json = await asyncio.to_thread(run_cli, db_env, *args, "--queue", "--json")
    assert direct.returncode == queued.returncode == as_json.returncode == 0, queued.stderr
    # Parallel roles finish in either order, in a direct run as in a queued one.
    assert sorted(_ids_masked(queued.stdout)) == sorted(_ids_masked(direct.stdout))
    assert "  · turn 1: audit" in queued.stdout
    report = json.loads(as_json.stdout.strip().splitlines()[-1])
    assert report["status"] == "completed" and order_id in report["answer"]


async def test_a_refused_turn_is_one_line_and_exit_2(db_env: dict[str, str]) -> None:
    with workers(db_env):
        done = await asyncio.to_thread(
            run_cli, db_env, "run", "--queue", "--user-id", "nobody_0000", "Where is my order?"
        )
    assert done.returncode == 2, done.stdout + done.stderr
    errors = [ln for ln in done.stderr.splitlines() if ln.startswith("rolegraph: error:")]
    assert len(errors) == 1 and "nobody_0000" in errors[0], done.stderr


def _ids_masked(text: str) -> list[str]:
    text = re.sub(r"thr-[0-9a-f]{12}", "THREAD", text)
    return re.sub(r"\b[0-9a-f]{8}-[0-9a-f-]{27}\b|audit[: ]+\S+", "AUDIT", text).splitlines()
