"""A served run delivered twice is one turn, not two (`nodes.turn`).

`langgraph dev` runs again, after a crash, every run it had saved as pending or
running, finished or not. The server's auth stamps each run that brings input;
these tests drive the graph with the stamps the server would send.
"""

from __future__ import annotations

from typing import Any

from graphs.api import RunReport, new_thread_id, report, resume_thread, run_request
from nodes.identity import AUTH_USER_KEY, Identity
from nodes.turn import TURN_STAMP_KEY
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders
from tests.support_fixtures import Support


async def _served(
    support: Support,
    user: str,
    text: str,
    tid: str,
    stamp: str,
    payload: dict[str, Any] | None = None,
    **options: Any,
) -> RunReport:
    """One run as the server makes it: the customer's input under a stamp."""
    configurable = {
        "thread_id": tid,
        AUTH_USER_KEY: Identity("customer", user).as_auth_user(),
        TURN_STAMP_KEY: stamp,
    }
    payload = payload or {"text": text, "user_id": user}
    config = {"configurable": configurable}
    await support.graph.ainvoke(payload, config, context=support.ctx, **options)
    return await report(support.graph, tid)


async def _approvals(support: Support, tid: str) -> list[tuple[str, str]]:
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT request_id, status FROM approvals WHERE thread_id = %s ORDER BY request_id",
            (tid,),
        )
        return [(r["request_id"], r["status"]) for r in await cur.fetchall()]


async def test_replayed_runs_of_a_waiting_turn_ask_the_operator_again_and_withdraw_nothing(
    support: Support,
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=21)
    tid = new_thread_id()
    asked = await _served(support, user, f"cancel {order}", tid, "stamp-cancel")
    assert asked.status == "needs_input", asked.trace
    waiting = await _served(support, user, "yes", tid, "stamp-yes")
    assert waiting.status == "interrupted", waiting.trace
    (request,) = waiting.interrupts

    # The server runs again both runs it had saved, the older one first.
    for stamp, text in (("stamp-cancel", f"cancel {order}"), ("stamp-yes", "yes")):
        again = await _served(support, user, text, tid, stamp)
        assert again.status == "interrupted", again.trace
        assert [r["id"] for r in again.interrupts] == [request["id"]]
        assert (again.turn, again.audit_id) == (waiting.turn, waiting.audit_id)
        assert await _approvals(support, tid) == [(request["id"], "pending")]
    state = await support.graph.aget_state({"configurable": {"thread_id": tid}})
    assert state.values["text"] == "yes"
    assert [m.text for m in state.values["messages"] if m.type == "human"] == [
        f"cancel {order}",
        "yes",
    ]

    done = await resume_thread(support.graph, support.ctx, tid, decision="approve", actor=OPERATOR)
    assert done.status == "completed", done.trace
    assert await order_status(support.db.pool, order) == "cancelled"


async def test_a_replayed_chat_message_is_not_added_again(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=25)
    tid = new_thread_id()
    chat = {"messages": [{"role": "user", "content": f"status of {order}?"}], "user_id": user}
    first = await _served(support, user, "", tid, "stamp-chat", payload=chat)
    assert first.status == "completed" and order in first.answer, first.trace
    again = await _served(support, user, "", tid, "stamp-chat", payload=chat)
    assert (again.turn, again.audit_id) == (first.turn, first.audit_id)
    state = await support.graph.aget_state({"configurable": {"thread_id": tid}})
    assert [m.type for m in state.values["messages"]] == ["human", "ai"]


async def test_a_new_run_with_the_same_words_is_a_new_turn_that_withdraws(
    support: Support,
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=22)
    tid = (
        await run_request(support.graph, support.ctx, text=f"cancel {order}", user_id=user)
    ).thread_id
    waiting = await _served(support, user, "yes", tid, "stamp-1")
    assert waiting.status == "interrupted", waiting.trace
    moved = await _served(support, user, "yes", tid, "stamp-2")
    assert moved.turn == waiting.turn + 1 and moved.interrupts == []
    assert [status for _, status in await _approvals(support, tid)] == ["withdrawn"]
    assert await order_status(support.db.pool, order) == "pending"


async def test_a_replayed_finished_turn_changes_nothing(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=23)
    tid = (await run_request(support.graph, support.ctx, text="hello", user_id=user)).thread_id
    asked = await _served(support, user, f"status of {order}?", tid, "stamp-read")
    assert asked.status == "completed" and order in asked.answer, asked.trace
    before = await support.graph.aget_state({"configurable": {"thread_id": tid}})

    again = await _served(support, user, f"status of {order}?", tid, "stamp-read")
    after = await support.graph.aget_state({"configurable": {"thread_id": tid}})
    assert (again.turn, again.audit_id, again.answer) == (asked.turn, asked.audit_id, asked.answer)
    assert len(after.values["messages"]) == len(before.values["messages"])


async def test_a_replayed_run_cut_off_mid_turn_finishes_that_turn(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=24)
    tid = (await run_request(support.graph, support.ctx, text="hello", user_id=user)).thread_id
    # Stopped after planning: the checkpoint a crash in the middle of the turn leaves.
    cut = await _served(
        support, user, f"status of {order}?", tid, "stamp-cut", interrupt_after=["planner"]
    )
    assert not cut.answer and cut.turn == 2, cut.trace

    again = await _served(support, user, f"status of {order}?", tid, "stamp-cut")
    assert again.status == "completed" and order in again.answer, again.trace
    assert (again.turn, again.audit_id) == (cut.turn, cut.audit_id)
    assert any("restarted by a retried run" in line for line in again.trace), again.trace
