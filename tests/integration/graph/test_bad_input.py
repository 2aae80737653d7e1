"""Hostile and malformed input through the Python API, the graph (served input) and the CLI.

Each is refused with a typed error or a one-line message before anything is
stored, and the thread it was aimed at stays answerable.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from langgraph.types import Command

from checkpoints.errors import InvalidArgument
from graphs.api import report, resume_thread
from nodes.identity import AUTH_USER_KEY, Identity
from tests.cli import run_cli
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders
from tests.support_fixtures import Support, run_confirmed

DEEP = "[" * 5000 + "]" * 5000


def _config(thread_id: str, caller: Identity = OPERATOR) -> dict[str, Any]:
    # What the LangGraph server hands the graph: the thread and who is calling.
    return {"configurable": {"thread_id": thread_id, AUTH_USER_KEY: caller.as_auth_user()}}


def _one_error_line(result: subprocess.CompletedProcess[Any]) -> str:
    stderr = result.stderr if isinstance(result.stderr, str) else result.stderr.decode()
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("rolegraph: error:")]
    assert len(errors) == 1, stderr
    return errors[0]


@pytest.mark.parametrize(
    ("text", "user_id", "words"),
    [
        ("where is my order\x00", "u", "NUL"),
        ("where is my order \ud800", "u", "surrogate"),
        (42, "u", "must be a string, not int"),
        (None, "u", "must be a string, not nothing"),
        ("x" * 4001, "u", "keep it under 4000"),
        ("where is my order", 42, "must be a string"),
        ("where is my order", "anya\x00", "NUL"),
        ("where is my order", "a b", "not an id"),
    ],
)
async def test_run_request_refuses_bad_input_with_a_typed_error(
    support: Support, text: Any, user_id: Any, words: str
) -> None:
    with pytest.raises(InvalidArgument, match=words):
        await run_confirmed(support.graph, support.ctx, text=text, user_id=user_id)


async def test_bad_thread_id_is_refused_before_it_reaches_postgres(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "pending", skip=20)
    with pytest.raises(InvalidArgument, match="the thread id contains a NUL"):
        await run_confirmed(
            support.graph, support.ctx, text="hello", user_id=user, thread_id="t\x00"
        )


async def test_bad_edit_args_leave_the_approval_answerable(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=21)
    first = await run_confirmed(support.graph, support.ctx, text=f"cancel {order}", user_id=user)
    assert first.status == "interrupted"
    bad_args: list[dict[str, Any]] = [
        {"order_id": order, "reason": "no longer needed\x00"},
        {"order_id": order, "reason\ud83d": "x"},
        {"order_id": order, "nested": [[[[[[["deep"]]]]]]]},
        {"order_id": order, "reason": "x" * 20_000},
    ]
    for args in bad_args:
        with pytest.raises(InvalidArgument):
            await resume_thread(
                support.graph, support.ctx, first.thread_id, decision="edit", args=args,
                actor=OPERATOR,
            )  # fmt: skip
    with pytest.raises(InvalidArgument, match="reply needs --message"):
        await resume_thread(
            support.graph, support.ctx, first.thread_id, decision="reply", actor=OPERATOR
        )
    still = await report(support.graph, first.thread_id)
    assert still.status == "interrupted" and still.interrupts == first.interrupts
    done = await resume_thread(
        support.graph, support.ctx, first.thread_id, decision="edit",
        args={"order_id": order, "reason": "no longer needed"}, actor=OPERATOR,
    )  # fmt: skip
    assert done.status == "completed"
    assert await order_status(support.db.pool, order) == "cancelled"


@pytest.mark.parametrize("bad", [{"text": 42}, {"text": ["a"]}, {"text": ""}, {"user_id": 7}])
async def test_served_input_is_refused_not_crashed_and_the_thread_serves_the_next(
    support: Support, bad: dict[str, Any]
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=22)
    thread = f"served-bad-{'-'.join(bad)}-{type(next(iter(bad.values()))).__name__}"
    payload = {"text": f"status of {order}?", "user_id": user, **bad}
    me = Identity("customer", user)
    await support.graph.ainvoke(payload, _config(thread, me), context=support.ctx)
    refused = await report(support.graph, thread)
    assert refused.status == "refused" and "can't read that request" in refused.answer
    await support.graph.ainvoke(
        {"text": f"status of {order}?", "user_id": user}, _config(thread, me), context=support.ctx
    )
    answered = await report(support.graph, thread)
    assert answered.status == "completed" and order in answered.answer


def test_argv_that_is_not_utf8_is_one_line_and_exit_2(db_env: dict[str, str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rolegraph_cli", "run", "--user-id", "u", b"where is \xff\xfe"],
        env=db_env,
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "not valid UTF-8" in _one_error_line(result)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (DEEP, "nested too deeply"),
        ('{"reason": "a\\u0000b"}', "NUL"),
        ('{"reason": "\\ud800"}', "surrogate"),
        ('{"a": {"b": {"c": {"d": {"e": {"f": {"g": 1}}}}}}}', "nested too deeply"),
    ],
)
def test_hostile_args_json_is_one_line_and_exit_2(
    db_env: dict[str, str], args: str, words: str
) -> None:
    result = run_cli(db_env, "resume", "thr-x", "--decision", "edit", "--args", args)
    assert result.returncode == 2
    assert words in _one_error_line(result)


async def test_cli_edit_with_nul_args_leaves_the_thread_answerable(
    support: Support, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=23)
    first = await run_confirmed(support.graph, support.ctx, text=f"cancel {order}", user_id=user)
    edit = json.dumps({"order_id": order, "reason": "no longer needed\x00"})
    bad = run_cli(db_env, "resume", first.thread_id, "--decision", "edit", "--args", edit)
    assert bad.returncode == 2 and "NUL" in _one_error_line(bad)
    good = run_cli(db_env, "resume", first.thread_id, "--decision", "approve")
    assert good.returncode == 0, good.stderr
    assert await order_status(support.db.pool, order) == "cancelled"


def test_reply_without_a_message_is_refused(db_env: dict[str, str]) -> None:
    result = run_cli(db_env, "resume", "thr-x", "--decision", "reply")
    assert result.returncode == 2
    assert "--message" in _one_error_line(result)


async def test_a_served_resume_with_nul_args_is_asked_again_not_wedged(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=24)
    first = await run_confirmed(support.graph, support.ctx, text=f"cancel {order}", user_id=user)
    (request,) = first.interrupts
    hostile = {"decision": "edit", "args": {"order_id": order, "reason": "no longer needed\x00"}}
    await support.graph.ainvoke(
        Command(resume={request["id"]: hostile}), _config(first.thread_id), context=support.ctx
    )
    again = await report(support.graph, first.thread_id)
    assert again.status == "interrupted" and again.interrupts == first.interrupts
    done = await resume_thread(
        support.graph, support.ctx, first.thread_id, decision="approve", actor=OPERATOR
    )
    assert done.status == "completed"
    assert await order_status(support.db.pool, order) == "cancelled"


def test_chat_input_that_is_not_utf8_is_one_line(db_env: dict[str, str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rolegraph_cli", "chat", "--user-id", "anyone"],
        env={**db_env, "PYTHONIOENCODING": "utf-8"},
        input=b"where is \xff my order\n",
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "not valid UTF-8" in _one_error_line(result)


def test_chat_input_with_a_nul_is_one_line(db_env: dict[str, str]) -> None:
    result = run_cli(db_env, "chat", "--user-id", "anyone", stdin="where is\x00 my order\n")
    assert result.returncode == 2
    assert "NUL" in _one_error_line(result)
