"""A customer who writes Chinese is answered in Chinese, through the whole support graph
on real Postgres: a status question, an approved cancel, another customer's order."""

from __future__ import annotations

from graphs.api import resume_thread, run_request
from nodes.language import CJK
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders
from tests.support_fixtures import Support, run_confirmed


async def test_a_chinese_status_question_is_answered_in_chinese(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=5)
    done = await run_request(
        support.graph, support.ctx, text=f"帮我查一下订单{order}的状态", user_id=user
    )
    assert done.status == "completed" and done.intents == ["order_status"]
    status, contents = done.answer.split("。", 1)
    assert status == f"订单 {order} 目前的状态是：待处理" and contents.startswith("订单中的商品：")
    english = await run_request(
        support.graph, support.ctx, text=f"What's the status of order {order}?", user_id=user
    )
    assert english.answer.startswith(f"Order {order} is pending. It holds: ")


async def test_an_approved_chinese_cancel_is_confirmed_in_chinese(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=6)
    asked = await run_request(
        support.graph, support.ctx, text=f"帮我取消订单{order}，买错了", user_id=user
    )
    assert asked.status == "needs_input" and asked.question
    assert asked.question["kind"] == "confirm"
    assert f"请确认：我将取消订单 {order}" in asked.question["text"]
    assert "请回复“是”确认" in asked.answer and "review: approved" in " ".join(asked.trace)
    first = await run_request(
        support.graph, support.ctx, text="是的", user_id=user, thread_id=asked.thread_id
    )
    assert first.status == "interrupted"
    assert first.interrupts[0]["skill"] == "cancel_pending_order_v1"
    done = await resume_thread(
        support.graph, support.ctx, first.thread_id, decision="approve", actor=OPERATOR
    )
    assert done.status == "completed"
    assert await order_status(support.db.pool, order) == "cancelled"
    assert done.answer.startswith(f"订单 {order} 已为您取消，款项将原路退回到原支付方式。")
    assert f"订单 {order} 已退款：$" in done.answer  # the amount, and the method it goes back to
    assert "review: approved" in " ".join(done.trace)


async def test_another_customers_order_is_refused_in_chinese(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "pending", skip=7)
    _, (foreign,) = await user_with_orders(support.db.pool, "pending", skip=8)
    done = await run_request(
        support.graph, support.ctx, text=f"帮我查一下订单{foreign}的状态", user_id=user
    )
    assert done.status == "refused"
    assert done.answer == f"我在您的订单中找不到 {foreign}，所以无法为您办理。"
    assert await order_status(support.db.pool, foreign) == "pending"


async def test_a_rejected_chinese_cancel_and_a_final_state_are_told_in_chinese(
    support: Support,
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=9)
    first = await run_confirmed(support.graph, support.ctx, text=f"取消订单{order}", user_id=user)
    assert first.status == "interrupted"
    done = await resume_thread(
        support.graph, support.ctx, first.thread_id, decision="reject", actor=OPERATOR
    )
    assert done.status == "completed"
    # The read the cancel depended on tells the status; the cancel's question listed the items.
    assert (
        done.answer
        == f"订单 {order} 目前的状态是：待处理。审核人员否决了“取消订单”操作，没有做任何更改。"
    )
    assert await order_status(support.db.pool, order) == "pending"
    owner, (delivered,) = await user_with_orders(support.db.pool, "delivered")
    final = await run_request(
        support.graph, support.ctx, text=f"取消订单{delivered}", user_id=owner
    )
    # Declined by the store, not failed: the reason and the alternative, in Chinese.
    assert final.status == "completed" and CJK.search(final.answer)
    assert f"订单 {delivered} 已经送达，无法取消；您可以改为申请退货或换货。" in final.answer


async def test_a_chinese_request_leaving_the_order_out_means_the_one_just_discussed(
    support: Support,
) -> None:
    user, (first, second) = await user_with_orders(support.db.pool, "pending", count=2, skip=5)
    looked = await run_request(
        support.graph, support.ctx, text=f"订单{second}里有什么？", user_id=user
    )
    tid = looked.thread_id
    # Chinese drops an object the conversation just named: "then cancel (it)".
    asked = await run_request(
        support.graph, support.ctx, text="嗯，那就取消吧", user_id=user, thread_id=tid
    )
    assert asked.status == "needs_input" and asked.question is not None, asked.trace
    assert asked.question["kind"] == "confirm"
    assert second in asked.question["text"] and first not in asked.question["text"]
    # Counting rather than pointing ("一个订单") still asks which.
    other = await run_request(support.graph, support.ctx, text=f"查一下订单{second}", user_id=user)
    counted = await run_request(
        support.graph, support.ctx, text="我想取消一个订单", user_id=user, thread_id=other.thread_id
    )
    assert counted.question is not None and counted.question["kind"] == "clarify"
    assert {first, second} <= {o["value"] for o in counted.question["options"]}
