"""Retail's ownership checks on real data: accounts exist, foreign orders are told apart."""

from __future__ import annotations

from checkpoints.opening import Database
from domains.retail.pack import DOMAIN
from domains.retail.understanding import understand
from tests.integration.graph.helpers import user_with_orders


async def test_customer_exists_only_for_real_accounts(retail_db: Database) -> None:
    user, _ = await user_with_orders(retail_db.pool, "pending")
    assert await DOMAIN.records.customer_exists(retail_db.pool, user)
    assert not await DOMAIN.records.customer_exists(retail_db.pool, "nobody_here_0000")


async def test_foreign_lists_other_customers_and_missing_orders_alike(retail_db: Database) -> None:
    user, (own,) = await user_with_orders(retail_db.pool, "pending")
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute("SELECT order_id FROM orders WHERE user_id <> %s LIMIT 1", (user,))
        row = await cur.fetchone()
    assert row is not None
    theirs = row["order_id"]
    u = understand(f"cancel {own}, {theirs} and #W0000000")
    assert u.slot("order_ids") == (own, theirs, "#W0000000")
    assert await DOMAIN.records.foreign(retail_db.pool, user, u) == [theirs, "#W0000000"]
    assert await DOMAIN.records.foreign(retail_db.pool, user, understand(f"cancel {own}")) == []
