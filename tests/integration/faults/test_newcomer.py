"""The newcomer path on an empty database: what to run first, and honest exit codes."""

from __future__ import annotations

import json

import psycopg

from checkpoints.database import DatabaseTarget
from tests.cli import run_cli


def _one_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("rolegraph: error:")]
    assert len(errors) == 1, stderr
    return errors[0]


def _delivered_order(target: DatabaseTarget) -> tuple[str, str]:
    with psycopg.connect(target.url) as conn:
        row = conn.execute(
            "SELECT user_id, order_id FROM orders WHERE status = 'delivered' ORDER BY order_id LIMIT 1"
        ).fetchone()
    assert row is not None
    return row[0], row[1]


def test_empty_database_then_generate_then_a_declined_write_exits_0(
    db_env: dict[str, str], fresh_target: DatabaseTarget
) -> None:
    empty = run_cli(db_env, "run", "--user-id", "anya_garcia_3271", "where is my order?")
    assert empty.returncode == 2
    assert "rolegraph data generate" in _one_error_line(empty.stderr)

    generated = run_cli(db_env, "data", "generate")
    assert generated.returncode == 0, generated.stderr

    # The store saying no (a delivered order cannot be cancelled) is an answer, not a failure.
    user, order = _delivered_order(fresh_target)
    declined = run_cli(
        db_env, "run", "--json", "--user-id", user, f"cancel {order}, ordered by mistake"
    )
    assert declined.returncode == 0, declined.stderr
    report = json.loads(declined.stdout.strip().splitlines()[-1])
    assert report["status"] == "completed", report
    assert f"Order {order} has already been delivered" in report["answer"]
    plain = run_cli(db_env, "run", "--user-id", user, f"cancel {order}, ordered by mistake")
    assert plain.returncode == 0 and ": completed" in plain.stdout
    assert "you can return or exchange its items instead" in plain.stdout


def test_the_escalation_hint_names_reply_and_message(
    db_env: dict[str, str], fresh_target: DatabaseTarget
) -> None:
    with psycopg.connect(fresh_target.url) as conn:
        loaded = conn.execute("SELECT to_regclass('users') IS NOT NULL").fetchone()
        if loaded and loaded[0]:
            loaded = conn.execute("SELECT EXISTS (SELECT 1 FROM users)").fetchone()
    if not (loaded and loaded[0]):  # run alone, without the test above
        assert run_cli(db_env, "data", "generate").returncode == 0
    user, _ = _delivered_order(fresh_target)
    started = run_cli(db_env, "run", "--user-id", user, "I want to talk to a human agent please")
    assert started.returncode == 0, started.stderr
    assert "pending escalation" in started.stdout, started.stdout
    hint = next(line for line in started.stdout.splitlines() if "resume with:" in line)
    assert '--decision reply --message "…"' in hint
    thread_id = hint.split("rolegraph resume ", 1)[1].split()[0]
    bare = run_cli(db_env, "resume", thread_id, "--decision", "reply")
    assert bare.returncode == 2 and "--message" in _one_error_line(bare.stderr)
    replied = run_cli(
        db_env, "resume", thread_id, "--decision", "reply", "--message", "We will call you today."
    )
    assert replied.returncode == 0, replied.stderr
    assert "We will call you today." in replied.stdout
