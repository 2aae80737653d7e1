"""A run killed with SIGKILL is continued by `rolegraph resume T`, never repeated.

The kills are real (`ROLEGRAPH_CRASH_AT` makes the CLI process SIGKILL
itself inside the write window); the continue is a second process.
"""

from __future__ import annotations

import json
import signal

from checkpoints.opening import Database
from tests.cli import run_cli
from tests.integration.graph.helpers import order_status, user_with_orders


async def _refunds(db: Database, order: str) -> int:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM order_payments WHERE order_id = %s"
            " AND transaction_type = 'refund'",
            (order,),
        )
        row = await cur.fetchone()
    return int(row["n"]) if row else 0


async def _cancelled_once(retail_db: Database, order: str, thread: str) -> None:
    """One refund per payment (the cancel ran once), and the approval asked once."""
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM order_payments WHERE order_id = %s"
            " AND transaction_type = 'payment'",
            (order,),
        )
        payments = (await cur.fetchone())["n"]  # type: ignore[index]
        cur = await conn.execute(
            "SELECT count(*) AS n FROM approvals WHERE thread_id = %s", (thread,)
        )
        asked = (await cur.fetchone())["n"]  # type: ignore[index]
    assert await _refunds(retail_db, order) == payments
    assert asked == 1


async def _approve_and_die(
    retail_db: Database, db_env: dict[str, str], skip: int, point: str, *flags: str
) -> tuple[str, str]:
    """(order, thread) of a pending cancel whose approved resume was killed at `point`."""
    user, (order,) = await user_with_orders(retail_db.pool, "pending", skip=skip)
    first = run_cli(db_env, "run", "--json", "--user-id", user, f"cancel {order}, no longer needed")
    thread = json.loads(first.stdout.splitlines()[-1])["thread_id"]
    confirmed = run_cli(db_env, "run", "--json", "--user-id", user, "--thread-id", thread, "yes")
    assert json.loads(confirmed.stdout.splitlines()[-1])["status"] == "interrupted"
    killed = run_cli(
        {**db_env, "ROLEGRAPH_CRASH_AT": point}, "resume", *flags, thread, "--decision", "approve"
    )
    assert killed.returncode == -signal.SIGKILL
    return order, thread


async def test_a_kill_after_the_write_commits_is_continued_exactly_once(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    order, thread = await _approve_and_die(retail_db, db_env, 4, "after_effect_commit")
    assert await order_status(retail_db.pool, order) == "cancelled"  # the write had committed
    listed = run_cli(db_env, "threads", "list")
    assert f"{thread}  crashed" in listed.stdout

    # A decision cannot be given twice; the crashed thread is continued instead.
    again = run_cli(db_env, "resume", thread, "--decision", "approve")
    assert again.returncode == 2 and "continue it first" in again.stderr
    done = run_cli(db_env, "resume", "--json", thread)
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout.splitlines()[-1])
    assert final["status"] == "completed" and "cancelled" in final["answer"]
    await _cancelled_once(retail_db, order, thread)
    assert f"{thread}  completed" in run_cli(db_env, "threads", "list").stdout


async def test_a_kill_before_the_ledger_row_completes_reruns_the_absent_write(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    order, thread = await _approve_and_die(retail_db, db_env, 5, "before_effect_commit")
    assert await order_status(retail_db.pool, order) == "pending"  # rolled back with the process
    # The dead owner's ledger claim is reconciled once its lease runs out: the
    # write is transactional, so a claim still `started` proves it absent.
    done = run_cli(db_env, "resume", "--json", thread)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["status"] == "completed"
    assert await order_status(retail_db.pool, order) == "cancelled"


async def test_a_decision_recorded_before_a_kill_is_applied_not_asked_again(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    order, thread = await _approve_and_die(retail_db, db_env, 6, "after_decision_recorded")
    assert await order_status(retail_db.pool, order) == "pending"
    done = run_cli(db_env, "resume", "--json", thread)
    if done.returncode == 2:  # the resume's checkpoint did not survive: the operator answers again
        assert "waiting for a decision" in done.stderr
        done = run_cli(db_env, "resume", "--json", thread, "--decision", "approve")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout.splitlines()[-1])
    assert final["status"] == "completed" and not final["interrupts"]
    assert await order_status(retail_db.pool, order) == "cancelled"
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM audit_events WHERE thread_id = %s AND status = 'approved'",
            (thread,),
        )
        assert (await cur.fetchone())["n"] == 1  # type: ignore[index]  # one decision, recorded once


async def test_a_kill_in_a_json_resume_whose_saves_run_behind_is_continued_exactly_once(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    # Without progress lines the steps' checkpoints are saved while the next
    # step runs, so the kill may leave the thread before the approval's answer.
    order, thread = await _approve_and_die(retail_db, db_env, 7, "after_effect_commit", "--json")
    assert await order_status(retail_db.pool, order) == "cancelled"
    done = run_cli(db_env, "resume", "--json", thread)
    if done.returncode == 2:  # the answer's checkpoint was in flight: the operator answers again
        assert "waiting for a decision" in done.stderr
        done = run_cli(db_env, "resume", "--json", thread, "--decision", "approve")
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout.splitlines()[-1])
    assert final["status"] == "completed" and "cancelled" in final["answer"]
    await _cancelled_once(retail_db, order, thread)
