"""`rolegraph run|resume --mode`: a thread keeps the mode that started it."""

from __future__ import annotations

import json
import subprocess
from typing import Any

from checkpoints.opening import Database
from graphs.modes import thread_mode
from tests.cli import run_cli
from tests.integration.graph.helpers import order_status, user_with_orders


def _last_json(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def _one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    """The one error line (beside it, stderr may only hold the no-model notice)."""
    assert result.returncode == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    (line,) = [x for x in lines if not x.startswith("rolegraph: no model")]
    return line


async def _cancel_confirmed(
    db: Database, env: dict[str, str], mode: str, user: str, order: str
) -> tuple[str, dict[str, Any]]:
    """A cancel asked in `mode`, then the customer's yes on the thread without --mode
    (the thread's own is used): the thread, and the run that waits for an operator."""
    asked = _last_json(
        run_cli(env, "run", "--json", "--mode", mode, "--user-id", user,
                f"cancel {order}, ordered by mistake")
    )  # fmt: skip
    assert asked["status"] == "needs_input" and asked["question"]["kind"] == "confirm"
    thread = asked["thread_id"]
    assert await thread_mode(db.checkpointer, thread) == mode
    started = _last_json(
        run_cli(env, "run", "--json", "--user-id", user, "--thread-id", thread, "yes")
    )
    assert started["status"] == "interrupted"
    return thread, started


async def test_plan_execute_cancel_with_confirmation_and_approval(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "pending", skip=30)
    thread, started = await _cancel_confirmed(retail_db, db_env, "plan_execute", user, order)
    (request,) = started["interrupts"]

    wrong = run_cli(db_env, "resume", thread, "--mode", "support", "--decision", "approve")
    assert _one_line_error(wrong) == (
        f"rolegraph: error: thread {thread!r} runs in mode 'plan_execute', not 'support';"
        " continue it with --mode plan_execute (or without --mode)"
    )
    assert await order_status(retail_db.pool, order) == "pending"

    done = run_cli(db_env, "resume", thread, "--mode", "plan_execute", "--decision", "approve",
                   "--request-id", request["id"])  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "mode: plan_execute" in done.stdout and f"thread {thread}: completed" in done.stdout
    assert await order_status(retail_db.pool, order) == "cancelled"


async def test_plan_execute_read_shows_its_steps(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "processed", skip=30)
    result = run_cli(db_env, "run", "--mode", "plan_execute", "--user-id", user,
                     f"where is my package for {order}?")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "mode: plan_execute" in result.stdout
    steps = [
        line.split("· ")[1].split(":")[0]
        for line in result.stdout.splitlines()
        if "· dispatch: ready=" in line or "· role_" in line
    ]
    # Both steps are ready at once (the support mode runs them together); here each
    # step runs alone: the first straight from the plan, the second once dispatch
    # comes back and finds it still ready.
    (planned,) = [line for line in result.stdout.splitlines() if "· planner[" in line]
    assert "t1:" in planned and "t2:" in planned
    assert "· dispatch: ready=['t2'] skipped=[]" in result.stdout
    assert steps == ["role_logistics_analyst", "dispatch"] * 2


def test_an_unknown_mode_is_one_line_naming_the_modes(db_env: dict[str, str]) -> None:
    result = run_cli(db_env, "run", "--mode", "nope", "--user-id", "u1", "hello")
    assert _one_line_error(result) == (
        "rolegraph: error: unknown mode 'nope'; choose one of: support, plan_execute, react"
    )
    queued = run_cli(db_env, "resume", "thr-x", "--queue", "--mode", "react-ish")
    assert "unknown mode 'react-ish'; choose one of" in _one_line_error(queued)


async def test_react_without_a_model_runs_the_rules_plan(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "pending", skip=31)
    # No model for the front role: planned as in the support mode, asked the same way.
    thread, _ = await _cancel_confirmed(retail_db, db_env, "react", user, order)
    done = run_cli(db_env, "resume", thread, "--decision", "approve")
    assert done.returncode == 0, done.stderr
    assert "mode: react" in done.stdout and f"thread {thread}: completed" in done.stdout
    assert await order_status(retail_db.pool, order) == "cancelled"
