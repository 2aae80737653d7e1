"""Conditional requests on the compiled graph: a read whose result gates the write (issue 10 §2).

"If it hasn't shipped yet, cancel it": the plan carries the condition on the
order lookup; the write runs (asking the customer and the operator as usual)
only when the status read holds it, and the answer says which way it went.
"""

from __future__ import annotations

import dataclasses
import json
import signal
from typing import Any

from checkpoints.opening import Database
from graphs.api import RunReport, compile_support, resume_thread, run_request
from nodes.models import ModelTiers
from tests.cli import run_cli
from tests.fakes.chat import ScriptedChatModel
from tests.integration.graph.helpers import OPERATOR, audit_rows, order_status, user_with_orders
from tests.support_fixtures import Support, say

CANCEL = "cancel_pending_order_v1"
RETURN = "return_delivered_order_items_v1"


async def _confirm_and_approve(support: Support, user: str, asked: RunReport) -> RunReport:
    assert asked.status == "needs_input", asked.trace
    assert asked.question is not None and asked.question["kind"] == "confirm"
    waiting = await say(support, user, "yes", asked.thread_id)
    assert waiting.status == "interrupted", waiting.trace
    return await resume_thread(
        support.graph, support.ctx, asked.thread_id, decision="approve", actor=OPERATOR
    )


async def _thread_rows(support: Support, thread_id: str, skill: str) -> list[str]:
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT status FROM audit_events WHERE thread_id = %s AND skill = %s ORDER BY id",
            (thread_id, skill),
        )
        return [r["status"] for r in await cur.fetchall()]


def _gated(report: RunReport, skill: str) -> dict[str, Any]:
    (write,) = [t for t in report.plan if t["skill"] == skill]
    lookup = next(t for t in report.plan if t["id"] == write["when"]["task"])
    assert lookup["skill"] == "get_order_details_v1" and write["when"]["field"] == "status"
    return dict(write["when"])


async def test_cancel_if_not_shipped_runs_when_it_is_pending(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=0)
    asked = await say(support, user, f"If {order} hasn't shipped yet, cancel it")
    assert _gated(asked, CANCEL)["name"] == "not_shipped"
    # The confirmation question says the condition held, then what will be done.
    assert asked.question is not None
    held = f"Order {order} has not shipped yet (status pending), so your condition is met."
    assert asked.question["text"].startswith(held + " To confirm: I will cancel order")
    assert any(" if t1:not_shipped" in line for line in asked.trace)
    done = await _confirm_and_approve(support, user, asked)
    assert done.status == "completed", done.trace
    assert await order_status(support.db.pool, order) == "cancelled"
    assert "has not shipped yet" in done.answer and "is now cancelled" in done.answer


async def test_cancel_if_not_shipped_does_nothing_once_it_shipped(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=0)
    done = await say(support, user, f"If {order} hasn't shipped yet, cancel it")
    assert done.status == "completed", done.trace
    assert done.question is None and done.interrupts == []
    assert (
        f"Order {order} has already shipped (status processed), so I did not cancel it;"
        in done.answer
    )
    assert "return it" in done.answer  # the alternative, once it is delivered
    assert any("condition not met=" in line for line in done.trace)
    # Never asked, never run: not even a confirmation row for the write.
    assert await _thread_rows(support, done.thread_id, CANCEL) == []
    assert await audit_rows(support.db.pool, done.audit_id or "", CANCEL) == []
    assert await order_status(support.db.pool, order) == "processed"


async def test_chinese_cancel_if_not_shipped_both_ways(support: Support) -> None:
    user, (pending,) = await user_with_orders(support.db.pool, "pending", skip=1)
    asked = await say(support, user, f"要是还没发货就帮我取消 {pending}")
    assert _gated(asked, CANCEL)["name"] == "not_shipped"
    assert f"订单 {pending} 还没有发货（状态：待处理），符合您提出的条件。" in asked.answer
    done = await _confirm_and_approve(support, user, asked)
    assert done.status == "completed" and "已为您取消" in done.answer, done.trace
    assert await order_status(support.db.pool, pending) == "cancelled"

    other, (shipped,) = await user_with_orders(support.db.pool, "processed", skip=1)
    kept = await say(support, other, f"如果 {shipped} 还没发货，帮我取消")
    assert kept.status == "completed" and kept.question is None, kept.trace
    assert f"订单 {shipped} 已经发货了（状态：已发货），所以我没有为您取消" in kept.answer
    assert "已为您取消" not in kept.answer
    assert await _thread_rows(support, kept.thread_id, CANCEL) == []
    assert await order_status(support.db.pool, shipped) == "processed"


async def test_return_if_delivered_runs_when_it_was_delivered(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "delivered", skip=0)
    asked = await say(support, user, f"if {order} has been delivered, I want to return it")
    assert _gated(asked, RETURN)["values"] == ["delivered"]
    done = await _confirm_and_approve(support, user, asked)
    assert done.status == "completed", done.trace
    assert await order_status(support.db.pool, order) == "return requested"
    assert f"Order {order} has been delivered (status delivered)" in done.answer
    assert "return is requested" in done.answer


async def test_return_if_delivered_does_nothing_before_delivery(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=2)
    done = await say(support, user, f"if {order} has been delivered, I want to return it")
    assert done.status == "completed" and done.interrupts == [], done.trace
    assert (
        f"Order {order} has already shipped (status processed), so I did not request a return;"
        in done.answer
    )
    assert await _thread_rows(support, done.thread_id, RETURN) == []
    assert await order_status(support.db.pool, order) == "processed"


async def test_chinese_return_if_delivered_both_ways(support: Support) -> None:
    user, (delivered,) = await user_with_orders(support.db.pool, "delivered", skip=1)
    asked = await say(support, user, f"{delivered} 送到了的话帮我退货")
    assert _gated(asked, RETURN)["name"] == "delivered"
    assert f"订单 {delivered} 已经送达（状态：已送达），符合您提出的条件。" in asked.answer
    done = await _confirm_and_approve(support, user, asked)
    assert done.status == "completed" and "退货申请已提交" in done.answer, done.trace
    assert await order_status(support.db.pool, delivered) == "return requested"

    other, (pending,) = await user_with_orders(support.db.pool, "pending", skip=2)
    kept = await say(support, other, f"如果 {pending} 已经到了，我要退货")
    assert kept.status == "completed" and kept.question is None, kept.trace
    assert f"订单 {pending} 还没有发货（状态：待处理），所以我没有为您办理退货" in kept.answer
    assert "您仍可以取消" in kept.answer
    assert await _thread_rows(support, kept.thread_id, RETURN) == []
    assert await order_status(support.db.pool, pending) == "pending"


async def test_unless_it_shipped_reads_as_not_shipped(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=3)
    done = await say(support, user, f"cancel {order} unless it has already shipped")
    assert _gated(done, CANCEL)["name"] == "not_shipped"
    assert done.status == "completed" and "so I did not cancel it" in done.answer
    assert await order_status(support.db.pool, order) == "processed"


def _plan(*tasks: dict[str, Any]) -> str:
    return json.dumps({"tasks": list(tasks)})


def _model_run(support: Support, large: ScriptedChatModel) -> Any:
    ctx = dataclasses.replace(support.ctx, models=ModelTiers(large=large, small=None))
    return ctx, compile_support(ctx, support.db.checkpointer)


async def test_a_model_plan_with_a_bad_condition_is_rejected(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=4)
    look = {"id": "a", "role": "order_query", "skill": "get_order_details_v1",
            "args": {"order_id": order}, "depends_on": []}  # fmt: skip
    cancel = {"id": "b", "role": "billing_specialist", "skill": CANCEL,
              "args": {"order_id": order, "reason": "no longer needed"}, "depends_on": ["a"]}  # fmt: skip
    gate = {"task": "a", "field": "status", "values": ["pending", "pending (item modified)"],
            "name": "not_shipped"}  # fmt: skip
    intake = json.dumps(
        {"intents": ["cancel_order"], "slots": {"order_ids": [order], "condition": "not_shipped"}}
    )
    bad = [
        {**cancel, "when": {**gate, "field": "user_id"}},  # a field no condition may test
        {**cancel, "when": {**gate, "values": ["processed"]}},  # not the customer's condition
        cancel,  # drops the condition: the write would run unconditionally
    ]
    for write in bad:
        large = ScriptedChatModel(script=[intake, _plan(look, write)])
        ctx, graph = _model_run(support, large)
        done = await run_request(graph, ctx, text=f"If {order} hasn't shipped yet, cancel it",
                                 user_id=user)  # fmt: skip
        assert any(line.startswith("planner[rules]: ") for line in done.trace), write
        assert _gated(done, CANCEL)["values"] == ["pending", "pending (item modified)"]
        assert done.status == "completed" and "so I did not cancel it" in done.answer
    good = ScriptedChatModel(script=[intake, _plan(look, {**cancel, "when": gate})])
    ctx, graph = _model_run(support, good)
    done = await run_request(graph, ctx, text=f"If {order} hasn't shipped yet, cancel it",
                             user_id=user)  # fmt: skip
    assert any(line.startswith("planner[large]: ") for line in done.trace), done.trace
    assert _gated(done, CANCEL)["task"] == "a"
    assert done.status == "completed" and "so I did not cancel it" in done.answer
    assert await order_status(support.db.pool, order) == "processed"


async def test_a_condition_survives_a_clarification_of_which_order(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=5)
    asked = await say(support, user, "If it hasn't shipped yet, cancel my order")
    assert asked.question is not None and asked.question["kind"] == "clarify", asked.trace
    done = await say(support, user, order, asked.thread_id)
    assert _gated(done, CANCEL)["name"] == "not_shipped"
    assert done.status == "completed" and f"Order {order} has already shipped" in done.answer
    assert await order_status(support.db.pool, order) == "processed"


async def test_a_conditional_cancel_killed_after_it_committed_is_continued_once(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "pending", skip=6)
    text = f"If {order} hasn't shipped yet, cancel it"
    first = run_cli(db_env, "run", "--json", "--user-id", user, text)
    thread = json.loads(first.stdout.splitlines()[-1])["thread_id"]
    confirmed = run_cli(db_env, "run", "--json", "--user-id", user, "--thread-id", thread, "yes")
    assert json.loads(confirmed.stdout.splitlines()[-1])["status"] == "interrupted"
    killed = run_cli({**db_env, "ROLEGRAPH_CRASH_AT": "after_effect_commit"},
                     "resume", thread, "--decision", "approve")  # fmt: skip
    assert killed.returncode == -signal.SIGKILL
    assert await order_status(retail_db.pool, order) == "cancelled"
    done = run_cli(db_env, "resume", "--json", thread)
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout.splitlines()[-1])
    # Told from the checkpointed read, not from the order as it is now (cancelled).
    assert final["status"] == "completed", final
    assert f"Order {order} has not shipped yet (status pending)" in final["answer"]
    assert "is now cancelled" in final["answer"]
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT transaction_type AS kind FROM order_payments WHERE order_id = %s", (order,)
        )
        kinds = [r["kind"] for r in await cur.fetchall()]
    assert kinds.count("refund") == kinds.count("payment")  # one refund per payment, not two
