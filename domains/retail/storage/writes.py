"""Write one entity back from a tau2-shaped dict, exactly and losslessly.

Skills implement tau2 semantics as read → mutate the dict → store; these
writers validate the dict with the same models as a load and rewrite the
entity's rows, so a stored entity reads back (and hashes) exactly as given.
Each runs in its own transaction, or a savepoint inside the caller's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checkpoints.errors import DataFormatError
from domains.retail.storage.models import User
from domains.retail.storage.rows import order_rows, user_rows
from domains.retail.storage.sqlio import (
    ROW_ERRORS,
    Conn,
    describe_db_error,
    insert_rows,
    upsert_row,
)
from domains.retail.storage.tables import ORDER_CHILD_ROOTS, ORDER_TABLES
from domains.retail.storage.tau2_format import parse_order, parse_user

_FIX = "store a valid tau2 entity"


async def store_order(conn: Conn, order: Mapping[str, Any]) -> None:
    """Create or replace one order (items, fulfillments, payments, request fields).

    An existing order keeps its place in its user's `orders` list; a new one
    is not added to it (store the user for that), and new tracking ids get a
    history only when `synthesize_tracking` runs.
    """
    model = parse_order(order)
    oid = model.order_id
    try:
        async with conn.transaction():
            cur = await conn.execute(
                "SELECT user_id, user_position FROM orders WHERE order_id = %s FOR UPDATE", (oid,)
            )
            existing = await cur.fetchone()
            # The order keeps its place in its user's list unless it changed hands.
            position = None
            if existing is not None and existing["user_id"] == model.user_id:
                position = existing["user_position"]
            rows = order_rows(model, position)
            await upsert_row(conn, "orders", rows["orders"][0])
            for table in ORDER_CHILD_ROOTS:
                await conn.execute(f"DELETE FROM {table} WHERE order_id = %s", (oid,))
            for table in ORDER_TABLES[1:]:
                await insert_rows(conn, table, rows.get(table, []))
    except ROW_ERRORS as exc:
        raise DataFormatError(f"order {oid}: {describe_db_error(exc)}; {_FIX}") from None


async def store_user(conn: Conn, user: Mapping[str, Any]) -> None:
    """Create or replace one user: profile, payment methods, and the order list."""
    model = parse_user(user)
    uid = model.user_id
    rows = user_rows(model)
    try:
        async with conn.transaction():
            await upsert_row(conn, "users", rows["users"][0])
            for row in rows["payment_methods"]:
                if not await upsert_row(conn, "payment_methods", row, owner="user_id"):
                    raise DataFormatError(
                        f"user {uid}: payment method '{row[0]}' belongs to another user; {_FIX}"
                    )
            kept = [row[0] for row in rows["payment_methods"]]
            await conn.execute(
                "DELETE FROM payment_methods WHERE user_id = %s AND NOT (id = ANY(%s))",
                (uid, kept),
            )
            await _store_order_list(conn, model)
    except ROW_ERRORS as exc:
        raise DataFormatError(f"user {uid}: {describe_db_error(exc)}; {_FIX}") from None


async def _store_order_list(conn: Conn, user: User) -> None:
    # The list lives as positions on the user's own orders (see 0002_retail.sql).
    cur = await conn.execute(
        "SELECT order_id FROM orders WHERE user_id = %s AND order_id = ANY(%s)",
        (user.user_id, user.orders),
    )
    owned = {r["order_id"] for r in await cur.fetchall()}
    stray = [o for o in user.orders if o not in owned]
    if stray or len(set(user.orders)) != len(user.orders):
        what = f"'{stray[0]}' is not an order of this user" if stray else "an order is listed twice"
        raise DataFormatError(f"user {user.user_id}: {what}; {_FIX}")
    await conn.execute("UPDATE orders SET user_position = NULL WHERE user_id = %s", (user.user_id,))
    await conn.execute(
        "UPDATE orders o SET user_position = v.pos - 1"
        " FROM unnest(%s::text[]) WITH ORDINALITY AS v(order_id, pos)"
        " WHERE o.order_id = v.order_id",
        (user.orders,),
    )
