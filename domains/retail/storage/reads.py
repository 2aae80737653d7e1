"""Read helpers for skills: one entity at a time, as tau2-shaped dicts.

Each returns None when the entity does not exist; the skill decides what
that means for the user. `for_update=True` row-locks the entity for a
read-mutate-store cycle and only makes sense inside a transaction.
"""

from __future__ import annotations

import psycopg
from psycopg.rows import DictRow

from checkpoints.opening import Pool
from domains.retail.storage.money import to_float
from domains.retail.storage.records import JsonDict, read_orders, read_products, read_users

Conn = psycopg.AsyncConnection[DictRow]


async def fetch_order(conn: Conn, order_id: str, *, for_update: bool = False) -> JsonDict | None:
    """The order with every optional field present (tau2's get_order_details shape)."""
    return (await read_orders(conn, [order_id], for_update=for_update)).get(order_id)


async def fetch_user(conn: Conn, user_id: str, *, for_update: bool = False) -> JsonDict | None:
    """The user with payment methods and order ids (tau2's get_user_details shape)."""
    return (await read_users(conn, [user_id], for_update=for_update)).get(user_id)


async def fetch_product(conn: Conn, product_id: str) -> JsonDict | None:
    """The product with its variants keyed by item id."""
    return (await read_products(conn, [product_id])).get(product_id)


async def fetch_variant(conn: Conn, item_id: str) -> JsonDict | None:
    """One variant: item_id, options, available, price (tau2's get_item_details shape)."""
    cur = await conn.execute("SELECT * FROM product_variants WHERE item_id = %s", (item_id,))
    variant = await cur.fetchone()
    if variant is None:
        return None
    cur = await conn.execute(
        "SELECT name, value FROM variant_options WHERE item_id = %s ORDER BY position",
        (item_id,),
    )
    return {
        "item_id": variant["item_id"],
        "options": {r["name"]: r["value"] for r in await cur.fetchall()},
        "available": variant["available"],
        "price": to_float(variant["price"]),
    }


async def find_user_id_by_email(conn: Conn, email: str) -> str | None:
    """The user whose email matches, ignoring case (as tau2 does)."""
    cur = await conn.execute("SELECT user_id FROM users WHERE lower(email) = lower(%s)", (email,))
    row = await cur.fetchone()
    return None if row is None else str(row["user_id"])


async def find_user_id_by_name_zip(conn: Conn, first: str, last: str, zip: str) -> str | None:
    """The user with this name (ignoring case) and exact zip code."""
    cur = await conn.execute(
        "SELECT user_id FROM users WHERE lower(first_name) = lower(%s)"
        " AND lower(last_name) = lower(%s) AND zip = %s ORDER BY user_id LIMIT 1",
        (first, last, zip),
    )
    row = await cur.fetchone()
    return None if row is None else str(row["user_id"])


async def list_product_types(conn: Conn) -> dict[str, str]:
    """Product name to product id, sorted by name as Python sorts (tau2's order)."""
    cur = await conn.execute("SELECT name, product_id FROM products")
    # Sorted here, not in SQL: the server's collation may order names differently.
    return dict(sorted((r["name"], r["product_id"]) for r in await cur.fetchall()))


async def product_names(pool: Pool) -> tuple[str, ...]:
    """Every product name, sorted: the words intake recognises as items."""
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT name FROM products ORDER BY name")
        return tuple(row["name"] for row in await cur.fetchall())


async def demo_subjects(conn: Conn) -> dict[str, str] | None:
    """One delayed order (with its tracking id) and one pending order, for `make demo`."""
    cur = await conn.execute(_DEMO_SUBJECTS)
    row = await cur.fetchone()
    return None if row is None else {k: str(v) for k, v in row.items()}


_DEMO_SUBJECTS = """
WITH delayed AS (
    SELECT o.order_id, o.user_id, t.tracking_id
    FROM shipments s
    JOIN fulfillment_tracking_ids t ON t.tracking_id = s.tracking_id
    JOIN orders o ON o.order_id = t.order_id
    WHERE s.status = 'delayed' AND o.status = 'processed'
    ORDER BY o.order_id LIMIT 1
), pending AS (
    SELECT order_id, user_id FROM orders WHERE status = 'pending' ORDER BY order_id LIMIT 1
)
SELECT d.order_id AS delayed_order, d.user_id AS delayed_user, d.tracking_id,
       p.order_id AS pending_order, p.user_id AS pending_user
FROM delayed d, pending p
"""
