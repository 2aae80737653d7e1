"""Conversations from the CLI: `run --thread-id` adds turns, a crashed turn is continued
first, `chat` keeps one thread (issue 9 §1)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
from typing import Any

from checkpoints.opening import Database
from tests.cli import run_cli
from tests.integration.graph.helpers import order_status, user_with_orders


def _last_json(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert result.returncode == 0, result.stderr
    parsed: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return parsed


def _one_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stdout
    (line,) = [x for x in result.stderr.splitlines() if x.startswith("rolegraph: error:")]
    return line


async def test_a_crash_in_the_middle_of_turn_two_is_continued_then_turn_three_runs(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "pending", skip=30)
    first = _last_json(run_cli(db_env, "run", "--json", "--user-id", user, f"status of {order}?"))
    tid = first["thread_id"]
    assert first["turn"] == 1 and first["status"] == "completed"
    turn = ("run", "--json", "--user-id", user, "--thread-id", tid)
    asked = _last_json(run_cli(db_env, *turn, f"cancel {order}, no longer needed"))
    assert asked["turn"] == 2 and asked["status"] == "needs_input"
    second = _last_json(run_cli(db_env, *turn, "yes"))
    assert second["turn"] == 3 and second["status"] == "interrupted"
    assert second["audit_id"] != first["audit_id"]

    crash = {**db_env, "ROLEGRAPH_CRASH_AT": "after_effect_commit"}
    killed = run_cli(crash, "resume", tid, "--decision", "approve")
    assert killed.returncode == -signal.SIGKILL
    stopped = _one_error(run_cli(db_env, *turn, "thanks"))
    assert (
        "stopped in the middle of its last turn" in stopped
        and f"rolegraph resume {tid}`" in stopped
    )

    continued = _last_json(run_cli(db_env, "resume", "--json", tid))
    assert continued["turn"] == 3 and continued["status"] == "completed"
    assert "cancelled" in continued["answer"]
    assert await order_status(retail_db.pool, order) == "cancelled"
    third = _last_json(run_cli(db_env, *turn, f"what is the status of {order}?"))
    assert third["turn"] == 4 and third["status"] == "completed"
    assert f"Order {order} is cancelled" in third["answer"]
    assert len({first["audit_id"], second["audit_id"], third["audit_id"]}) == 3


async def test_another_customers_turn_is_refused_in_one_line(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    me, (mine,) = await user_with_orders(retail_db.pool, "delivered", skip=31)
    other, _ = await user_with_orders(retail_db.pool, "delivered", skip=32)
    tid = _last_json(run_cli(db_env, "run", "--json", "--user-id", me, f"status of {mine}?"))[
        "thread_id"
    ]
    refused = run_cli(db_env, "run", "--user-id", other, "--thread-id", tid, "status?")
    assert "another customer's conversation" in _one_error(refused)


async def test_chat_keeps_one_thread_for_the_session(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, orders = await user_with_orders(retail_db.pool, "delivered", count=2, skip=33)
    script = f"status of {orders[0]}?\nand {orders[1]}?\n"
    result = run_cli(db_env, "chat", "--user-id", user, stdin=script)
    assert result.returncode == 0, result.stderr
    shown = re.search(r"rolegraph chat on thread (thr-[0-9a-f]+)", result.stdout)
    assert shown is not None, result.stdout
    answers = [line for line in result.stdout.splitlines() if line.startswith("bot> ")]
    assert len(answers) == 2 and orders[1] in answers[1]
    later = _last_json(
        run_cli(db_env, "run", "--json", "--user-id", user, "--thread-id", shown[1], "thanks")
    )
    assert later["turn"] == 3
