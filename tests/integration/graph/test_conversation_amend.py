"""A return takes what the customer names, also when a yes names it ("yes, but only …")."""

from __future__ import annotations

from tests.support_fixtures import Support, say


async def _delivered_with_items(support: Support) -> tuple[str, str, dict[str, str]]:
    """(user, order, item name -> id) of a delivered order with 3+ differently named items."""
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT o.user_id, o.order_id, array_agg(i.name ORDER BY i.position) AS names,"
            " array_agg(i.item_id ORDER BY i.position) AS ids FROM orders o"
            " JOIN order_items i ON i.order_id = o.order_id WHERE o.status = 'delivered'"
            " GROUP BY o.user_id, o.order_id HAVING count(DISTINCT i.name) >= 3"
            " AND count(*) = count(DISTINCT i.name) ORDER BY o.order_id OFFSET 4 LIMIT 1"
        )
        row = await cur.fetchone()
    assert row is not None
    return row["user_id"], row["order_id"], dict(zip(row["names"], row["ids"], strict=True))


async def test_a_yes_naming_one_item_narrows_the_return_to_it(support: Support) -> None:
    user, order, items = await _delivered_with_items(support)
    keep, *others = list(items)
    asked = await say(support, user, f"I want to send back everything from order {order}")
    assert asked.status == "needs_input" and asked.question is not None
    assert all(name in asked.question["text"] for name in items)
    amended = await say(support, user, f"yes, but only the {keep.lower()}", asked.thread_id)
    assert amended.status == "needs_input" and amended.question is not None, amended.trace
    stated = amended.question["text"].split("To confirm:")[1]
    assert keep in stated and not any(name in stated for name in others)
    done = await say(support, user, "yes", amended.thread_id)
    assert done.status == "interrupted", done.trace
    (pending,) = done.interrupts
    assert pending["skill"] == "return_delivered_order_items_v1"
    assert pending["args"]["item_ids"] == [items[keep]]
