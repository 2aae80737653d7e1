"""The retail pack's restore point: it names and puts back every changed order and account."""

from __future__ import annotations

from checkpoints.opening import Database
from domains.retail.pack import DOMAIN
from domains.retail.storage import canonical_hash, export_canonical


async def _hash(db: Database) -> str:
    async with db.pool.connection() as conn:
        return canonical_hash(await export_canonical(conn))


async def test_a_restore_point_puts_back_what_changed_and_names_it(retail_db: Database) -> None:
    assert DOMAIN.seed is not None
    before = await _hash(retail_db)
    restore = await DOMAIN.seed.restore_point(retail_db.pool)
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute(
            "UPDATE orders SET status = 'cancelled' WHERE order_id ="
            " (SELECT min(order_id) FROM orders WHERE status = 'pending') RETURNING order_id"
        )
        order = (await cur.fetchone() or {})["order_id"]
        cur = await conn.execute(
            "UPDATE users SET email = 'changed@example.org' WHERE user_id ="
            " (SELECT min(user_id) FROM users) RETURNING user_id"
        )
        user = (await cur.fetchone() or {})["user_id"]
    assert await _hash(retail_db) != before

    assert await restore() == (order, user)

    assert await _hash(retail_db) == before
    assert await restore() == ()
