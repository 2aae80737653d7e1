"""The two ownership questions intake asks of retail's tables: users and orders."""

from __future__ import annotations

from collections.abc import Sequence

from checkpoints.opening import Pool


async def user_exists(pool: Pool, user_id: str) -> bool:
    """Whether `user_id` is a customer account."""
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT 1 FROM users WHERE user_id = %s", (user_id,))
        return await cur.fetchone() is not None


async def foreign_orders(pool: Pool, user_id: str, order_ids: Sequence[str]) -> list[str]:
    """Order ids that do not exist or belong to someone else.

    Both cases are answered the same way, so a customer cannot probe which
    order ids exist.
    """
    if not order_ids:
        return []
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT order_id FROM orders WHERE order_id = ANY(%s) AND user_id = %s",
            (list(order_ids), user_id),
        )
        owned = {row["order_id"] for row in await cur.fetchall()}
    return [o for o in order_ids if o not in owned]
