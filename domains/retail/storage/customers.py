"""The two ownership questions intake asks of retail's tables: users and orders."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import NamedTuple

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


async def order_summaries(pool: Pool, user_id: str) -> list[tuple[str, str, list[str]]]:
    """(order id, status, item names) of every order of `user_id`, in the order of their
    account's list (the order a customer sees them in)."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT o.order_id, o.status,"
            " coalesce(array_agg(i.name ORDER BY i.position) FILTER (WHERE i.name IS NOT NULL),"
            " '{}') AS names"
            " FROM orders o LEFT JOIN order_items i ON i.order_id = o.order_id"
            " WHERE o.user_id = %s GROUP BY o.order_id, o.status, o.user_position"
            " ORDER BY o.user_position NULLS LAST, o.order_id",
            (user_id,),
        )
        return [(r["order_id"], r["status"], list(r["names"])) for r in await cur.fetchall()]


class PaymentMethodRow(NamedTuple):
    id: str
    source: str
    brand: str | None
    last_four: str | None
    balance: Decimal | None


async def payment_methods(pool: Pool, user_id: str) -> list[PaymentMethodRow]:
    """The payment methods of `user_id`, in their account's order."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT id, source, brand, last_four, balance FROM payment_methods"
            " WHERE user_id = %s ORDER BY position",
            (user_id,),
        )
        return [
            PaymentMethodRow(r["id"], r["source"], r["brand"], r["last_four"], r["balance"])
            for r in await cur.fetchall()
        ]
