"""A customer corrects the record they named, or adds a request to their yes: the request
goes on with the right record, and the yes with the added request."""

from __future__ import annotations

import re

from graphs.api import resume_thread
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders
from tests.support_fixtures import Support, say


async def test_a_corrected_id_gets_the_answer_the_last_turn_asked_for(support: Support) -> None:
    user, (first, second) = await user_with_orders(support.db.pool, "pending", count=2, skip=1)
    asked = await say(support, user, f"has {first} shipped yet?")
    assert asked.status == "completed" and first in asked.answer
    fixed = await say(support, user, f"my bad, I meant {second}", asked.thread_id)
    assert fixed.status == "completed", fixed.trace
    assert second in fixed.answer and "pending" in fixed.answer
    assert fixed.intents == asked.intents


async def test_a_chinese_correction_is_answered_in_chinese(support: Support) -> None:
    user, (first, second) = await user_with_orders(support.db.pool, "delivered", count=2, skip=2)
    asked = await say(support, user, f"订单{first}现在是什么状态？")
    fixed = await say(support, user, f"啊我打错了，应该是{second}", asked.thread_id)
    assert fixed.status == "completed", fixed.trace
    assert second in fixed.answer and "已送达" in fixed.answer


async def test_a_correction_to_a_confirmation_asks_for_the_named_order(support: Support) -> None:
    user, (first, second) = await user_with_orders(support.db.pool, "pending", count=2, skip=3)
    asked = await say(support, user, f"cancel {first} please")
    assert asked.status == "needs_input" and asked.question is not None
    fixed = await say(support, user, f"my mistake, {second}", asked.thread_id)
    assert fixed.status == "needs_input", fixed.trace
    assert fixed.question is not None and fixed.question["kind"] == "confirm"
    assert second in fixed.question["text"] and first not in fixed.question["text"]
    done = await say(support, user, "yes", fixed.thread_id)
    assert done.status == "interrupted"
    assert [(p["skill"], p["args"]["order_id"]) for p in done.interrupts] == [
        ("cancel_pending_order_v1", second)
    ]
    assert await order_status(support.db.pool, first) == "pending"


async def test_a_yes_with_one_more_request_confirms_and_answers_both(support: Support) -> None:
    user, (first, second) = await user_with_orders(support.db.pool, "pending", count=2, skip=4)
    asked = await say(support, user, f"please cancel {first}")
    assert asked.status == "needs_input"
    both = await say(support, user, f"yes, go on. and also what's in {second}?", asked.thread_id)
    assert both.status == "interrupted", both.trace
    assert [(p["skill"], p["args"]["order_id"]) for p in both.interrupts] == [
        ("cancel_pending_order_v1", first)
    ]
    done = await resume_thread(
        support.graph, support.ctx, both.thread_id, decision="approve", actor=OPERATOR
    )
    assert done.status == "completed" and first in done.answer and second in done.answer
    assert await order_status(support.db.pool, first) == "cancelled"
    assert await order_status(support.db.pool, second) == "pending"


async def test_a_position_counts_in_the_list_shown_turns_before(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "delivered", count=1, skip=6)
    listed = await say(support, user, "which orders do I have?")
    shown = re.findall(r"#W\d+", listed.answer.split("Your orders:")[1])
    assert len(shown) >= 3, listed.answer
    about = await say(support, user, f"what's the status of {shown[0]}?", listed.thread_id)
    assert about.status == "completed"
    # Turn 2 was about one order; "the last one" still counts in turn 1's list.
    last = await say(support, user, "and what about the last one?", about.thread_id)
    assert last.status == "completed", last.trace
    assert shown[-1] in last.answer and shown[0] not in last.answer
