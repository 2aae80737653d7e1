"""A thread is a conversation: turns on one thread, each starting clean (issue 9 §1)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from checkpoints.errors import InvalidArgument, NotFound
from graphs.api import report, resume_thread, run_request
from nodes.identity import AUTH_USER_KEY, Identity
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders
from tests.support_fixtures import Support, run_confirmed


def _as(user_id: str, thread_id: str) -> dict[str, Any]:
    """A run config as the server hands it to the graph: the customer authenticated."""
    user = Identity("customer", user_id).as_auth_user()
    return {"configurable": {"thread_id": thread_id, AUTH_USER_KEY: user}}


async def _messages(support: Support, thread_id: str) -> list[tuple[str, str]]:
    state = await support.graph.aget_state({"configurable": {"thread_id": thread_id}})
    return [(m.type, m.text) for m in state.values["messages"]]


async def _audit_threads(support: Support, audit_id: str) -> set[str]:
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT DISTINCT thread_id FROM audit_events WHERE audit_id = %s", (audit_id,)
        )
        return {r["thread_id"] for r in await cur.fetchall()}


async def test_three_turns_on_one_thread(support: Support) -> None:
    user, orders = await user_with_orders(support.db.pool, "delivered", count=2, skip=20)
    first = await run_request(
        support.graph, support.ctx, text=f"what is the status of {orders[0]}?", user_id=user
    )
    tid = first.thread_id
    second = await run_request(
        support.graph, support.ctx, text=f"and {orders[1]}?", user_id=user, thread_id=tid
    )
    third = await run_request(
        support.graph, support.ctx, text=f"status of {orders[0]} again", user_id=user, thread_id=tid
    )
    assert [r.turn for r in (first, second, third)] == [1, 2, 3]
    assert all(r.status == "completed" for r in (first, second, third))
    assert orders[1] in second.answer and orders[0] not in second.answer
    assert orders[0] in third.answer
    audits = [r.audit_id for r in (first, second, third)]
    assert len(set(audits)) == 3
    for audit_id in audits:
        assert await _audit_threads(support, audit_id or "") == {tid}  # turns linked by thread
    assert await _messages(support, tid) == [
        ("human", f"what is the status of {orders[0]}?"),
        ("ai", first.answer),
        ("human", f"and {orders[1]}?"),
        ("ai", second.answer),
        ("human", f"status of {orders[0]} again"),
        ("ai", third.answer),
    ]
    # A turn's trace is its own: the third shows no step of the second.
    assert third.trace[0].startswith("turn 3: audit ") and f"'{orders[1]}'" not in str(third.trace)


async def test_chat_messages_input_is_a_turn(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "delivered", skip=21)
    tid = "thr-chat-messages"
    asked = {"messages": [{"role": "user", "content": f"what's the status of {order}?"}]}
    await support.graph.ainvoke(asked, _as(user, tid), context=support.ctx)
    first = await report(support.graph, tid)
    assert first.status == "completed" and order in first.answer and first.user_id == user
    # Content blocks, as some chat clients send them; the message ids are kept.
    blocks = HumanMessage(content=[{"type": "text", "text": "thanks, and who am I?"}], id="m-2")
    await support.graph.ainvoke({"messages": [blocks]}, _as(user, tid), context=support.ctx)
    second = await report(support.graph, tid)
    assert second.turn == 2 and second.audit_id != first.audit_id
    state = await support.graph.aget_state({"configurable": {"thread_id": tid}})
    messages = state.values["messages"]
    assert [type(m) for m in messages] == [HumanMessage, AIMessage, HumanMessage, AIMessage]
    assert messages[2].id == "m-2" and messages[3].text == second.answer
    assert state.values["text"] == "thanks, and who am I?"
    assert order not in second.answer  # turn 1's outcomes do not answer turn 2


async def test_a_grant_of_turn_one_never_authorises_turn_two(support: Support) -> None:
    user, orders = await user_with_orders(support.db.pool, "pending", count=2, skip=22)
    first = await run_confirmed(
        support.graph, support.ctx, text=f"cancel {orders[0]}, no longer needed", user_id=user
    )
    tid = first.thread_id
    done = await resume_thread(support.graph, support.ctx, tid, decision="approve", actor=OPERATOR)
    assert done.status == "completed" and done.turn == 2  # asked to confirm, then "yes"
    assert await order_status(support.db.pool, orders[0]) == "cancelled"

    # The same plan shape (task t1, the same skill): without a fresh turn its
    # outcome would read "succeeded" and its grant would stand approved.
    second = await run_confirmed(
        support.graph, support.ctx, text=f"cancel {orders[1]}, no longer needed", user_id=user,
        thread_id=tid,
    )  # fmt: skip
    assert second.status == "interrupted" and second.turn == 4
    assert second.interrupts[0]["args"]["order_id"] == orders[1]
    assert second.interrupts[0]["id"] != first.interrupts[0]["id"]
    state = (await support.graph.aget_state({"configurable": {"thread_id": tid}})).values
    assert state["grants"] == {} and state["decided"] == {}
    assert set(state["pending"]) == {second.interrupts[0]["id"]}
    assert await order_status(support.db.pool, orders[1]) == "pending"
    rejected = await resume_thread(
        support.graph, support.ctx, tid, decision="reject", actor=OPERATOR
    )
    assert rejected.status == "completed"
    assert await order_status(support.db.pool, orders[1]) == "pending"


async def test_another_customer_cannot_add_a_turn(support: Support) -> None:
    me, (mine,) = await user_with_orders(support.db.pool, "delivered", skip=23)
    other, _ = await user_with_orders(support.db.pool, "delivered", skip=24)
    first = await run_request(support.graph, support.ctx, text=f"status of {mine}?", user_id=me)
    tid = first.thread_id
    with pytest.raises(NotFound, match=f"no thread '{tid}'"):
        await run_request(support.graph, support.ctx, text="hi", user_id=other, thread_id=tid)
    with pytest.raises(InvalidArgument, match="another customer's conversation"):
        await run_request(
            support.graph, support.ctx, text="hi", user_id=other, thread_id=tid, actor=OPERATOR
        )
    after = await report(support.graph, tid)
    assert after.turn == 1 and after.answer == first.answer and after.user_id == me
