"""`rolegraph run|resume|inbox` as separate processes over one database."""

from __future__ import annotations

import json
import subprocess

from checkpoints.opening import Database
from rolegraph_cli.support_cmd import EXIT_FAILED
from tests.cli import run_cli
from tests.integration.graph.helpers import order_status, user_with_orders


def _last_json(result: subprocess.CompletedProcess[str]) -> dict:  # type: ignore[type-arg]
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


async def test_run_interrupts_and_a_second_process_resumes_it(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "pending")
    asked = _last_json(
        run_cli(db_env, "run", "--json", "--user-id", user, f"cancel {order}, ordered by mistake")
    )
    assert asked["status"] == "needs_input" and asked["interrupts"] == []
    assert asked["question"]["kind"] == "confirm" and order in asked["question"]["text"]
    assert asked["answer"] == asked["question"]["text"]
    started = _last_json(
        run_cli(
            db_env, "run", "--json", "--user-id", user, "--thread-id", asked["thread_id"], "yes"
        )
    )
    assert started["status"] == "interrupted"
    assert set(started) == {
        "thread_id",
        "status",
        "intents",
        "plan",
        "interrupts",
        "answer",
        "audit_id",
        "turn",
        "question",
    }
    assert started["turn"] == 2 and started["question"] is None
    assert started["intents"] == ["cancel_order"]
    assert [t["skill"] for t in started["plan"]] == [
        "get_order_details_v1",
        "cancel_pending_order_v1",
    ]
    (request,) = started["interrupts"]
    assert request["kind"] == "approval" and request["risk"] == "high"

    inbox = run_cli(db_env, "inbox")
    assert request["id"] in inbox.stdout

    resumed = _last_json(
        run_cli(
            db_env,
            "resume",
            started["thread_id"],
            "--decision",
            "approve",
            "--request-id",
            request["id"],
            "--json",
        )
    )
    assert resumed["status"] == "completed"
    assert await order_status(retail_db.pool, order) == "cancelled"
    assert request["id"] not in run_cli(db_env, "inbox").stdout

    again = run_cli(db_env, "resume", started["thread_id"], "--decision", "approve")
    assert again.returncode == 2 and "nothing to resume" in again.stderr


async def test_readable_trace_without_json(retail_db: Database, db_env: dict[str, str]) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "processed")
    result = run_cli(db_env, "run", "--user-id", user, f"where is my package for {order}?")
    assert result.returncode == 0, result.stderr
    assert "intake[rules]" in result.stdout and "role_logistics_analyst" in result.stdout
    assert "completed" in result.stdout
    assert "rules tier" in result.stderr  # said once when no model is configured


async def test_bad_input_is_one_line_and_exit_2(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, _ = await user_with_orders(retail_db.pool, "pending")
    cases = [
        (("run", "--user-id", user, "   "), "empty"),
        (("run", "--user-id", "nobody_0000", "where is my order"), "unknown user"),
        (("resume", "thr-does-not-exist", "--decision", "approve"), "no thread"),
        (("resume", "thr-x", "--decision", "edit", "--args", "{not json"), "not valid JSON"),
        (("resume", "thr-x", "--decision", "edit", "--args", "[1, 2]"), "JSON object"),
    ]
    for args, words in cases:
        result = run_cli(db_env, *args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        errors = [
            line for line in result.stderr.splitlines() if line.startswith("rolegraph: error:")
        ]
        assert len(errors) == 1 and words in errors[0], (args, result.stderr)


async def test_chat_asks_approvals_inline(retail_db: Database, db_env: dict[str, str]) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "pending", skip=1)
    # "abort" or "yes" is not a decision: the prompt asks again until it hears one.
    script = (
        f"what is the status of {order}?\ncancel it, no longer needed\nyes\nabort\nyes\napprove\n"
    )
    result = run_cli(db_env, "chat", "--user-id", user, stdin=script)
    assert result.returncode == 0, result.stderr
    answers = [line for line in result.stdout.splitlines() if line.startswith("bot> ")]
    assert len(answers) == 3
    assert f"Order {order} is pending" in answers[0]
    assert "To confirm: I will cancel order " + order in answers[1]  # "it" is the order
    assert "needs approval: cancel_pending_order_v1" in result.stdout
    assert result.stdout.count("please answer exactly one of: approve, reject, edit") == 2
    assert "cancelled" in answers[2]
    assert await order_status(retail_db.pool, order) == "cancelled"


async def test_a_declined_write_exits_0_and_a_system_failure_exits_1(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "cancelled", skip=1)
    declined = run_cli(db_env, "run", "--json", "--user-id", user, f"cancel order {order}")
    report = _last_json(declined)  # exit 0
    assert report["status"] == "completed" and report["interrupts"] == []
    assert (
        f"Order {order} is already cancelled; there is nothing left to cancel."
        in (report["answer"])
    )

    user, (shipped,) = await user_with_orders(retail_db.pool, "processed", skip=1)
    # The carrier's scans are gone: the tracking step fails for a reason that is the system's.
    async with retail_db.pool.connection() as conn:
        await conn.execute("ALTER TABLE tracking_events RENAME TO tracking_events_away")
    try:
        failed = run_cli(db_env, "run", "--json", "--user-id", user, f"track order {shipped}")
    finally:
        async with retail_db.pool.connection() as conn:
            await conn.execute("ALTER TABLE tracking_events_away RENAME TO tracking_events")
    assert failed.returncode == EXIT_FAILED, failed.stderr
    report = json.loads(failed.stdout.strip().splitlines()[-1])
    assert report["status"] == "failed", report
    assert "something went wrong on our side" in report["answer"]
