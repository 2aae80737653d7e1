"""A change that gives no value asks for it (`IntentSpec.asks`): "change the address of
#W…" asks for the address, then confirms the change with it; a payment change offers the
customer's own payment methods."""

from __future__ import annotations

from tests.integration.graph.helpers import user_with_orders
from tests.support_fixtures import Support, say

NEW_ADDRESS = "55 Elm Road, Apt 2, Springfield, IL 62704"


async def test_an_address_change_without_the_address_asks_for_it_then_confirms_it(
    support: Support,
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=70)
    asked = await say(support, user, f"please change the shipping address of {order}")
    assert asked.status == "needs_input", asked.trace
    question = asked.question
    assert question is not None and question["kind"] == "clarify"
    assert question["slot"] == "address" and question["options"] == []
    assert "new address" in question["text"] and "ZIP" in question["text"]

    confirm = await say(support, user, f"sure, it's {NEW_ADDRESS}", asked.thread_id)
    assert confirm.status == "needs_input", confirm.trace
    assert confirm.question is not None and confirm.question["kind"] == "confirm"
    assert order in confirm.question["text"] and "55 Elm Road" in confirm.question["text"]
    assert "62704" in confirm.question["text"]


async def test_a_reply_that_is_no_address_asks_again_and_a_new_request_replaces_it(
    support: Support,
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=71)
    asked = await say(support, user, f"订单{order}的收货地址改一下")
    assert asked.question is not None and asked.question["slot"] == "address", asked.trace
    assert "新的地址" in asked.question["text"]

    again = await say(support, user, "嗯", asked.thread_id)
    assert again.status == "needs_input" and again.question is not None
    assert again.question["slot"] == "address" and "抱歉" in again.answer

    other = await say(support, user, f"算了，{order}现在什么状态？", asked.thread_id)
    assert other.status == "completed", other.trace
    assert order in other.answer and other.question is None


async def test_an_account_address_change_asks_for_the_address(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "delivered", skip=70)
    asked = await say(support, user, "I moved, please update my address")
    assert asked.question is not None and asked.question["slot"] == "address", asked.trace
    confirm = await say(support, user, NEW_ADDRESS, asked.thread_id)
    assert confirm.question is not None and confirm.question["kind"] == "confirm", confirm.trace
    assert "account" in confirm.question["text"] and "55 Elm Road" in confirm.question["text"]


async def test_a_payment_change_offers_the_customers_own_methods(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=72)
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT id FROM payment_methods WHERE user_id = %s ORDER BY position", (user,)
        )
        methods = [r["id"] for r in await cur.fetchall()]
    asked = await say(support, user, f"change the payment method of order {order}")
    question = asked.question
    assert question is not None and question["slot"] == "payment_method", asked.trace
    assert [o["value"] for o in question["options"]] == methods[: len(question["options"])]

    picked = await say(support, user, "1", asked.thread_id)
    assert picked.status == "needs_input", picked.trace
    assert picked.question is not None and picked.question["kind"] == "confirm"
    assert methods[0] in picked.question["text"]
