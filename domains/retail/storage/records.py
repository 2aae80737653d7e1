"""Read entities back from their rows as tau2-shaped dicts.

One code path serves both single-entity reads and the full export, so what
a skill sees and what the hash covers can never disagree. Dicts carry tau2's
key order; list order comes from the `position` columns.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.rows import DictRow

from domains.retail.storage.money import optional_float, to_float
from domains.retail.storage.tables import ADDRESS_COLUMNS, REQUEST_KINDS

JsonDict = dict[str, Any]
Conn = psycopg.AsyncConnection[DictRow]


async def read_products(conn: Conn, ids: Sequence[str] | None = None) -> dict[str, JsonDict]:
    """Products by id (all when `ids` is None), ordered by id."""
    where = _where("product_id", ids)
    products = await _entity_rows(conn, "products", "product_id", ids)
    variants = await _rows(
        conn, f"SELECT * FROM product_variants {where} ORDER BY product_id, position", ids
    )
    options = await _options(
        conn,
        "SELECT o.item_id AS key, o.name, o.value FROM variant_options o"
        f" JOIN product_variants v USING (item_id) {_where('v.product_id', ids)}"
        " ORDER BY o.item_id, o.position",
        ids,
    )
    by_product: dict[str, JsonDict] = defaultdict(dict)
    for v in variants:
        by_product[v["product_id"]][v["item_id"]] = {
            "item_id": v["item_id"],
            "options": options.get(v["item_id"], {}),
            "available": v["available"],
            "price": to_float(v["price"]),
        }
    return {
        p["product_id"]: {
            "name": p["name"],
            "product_id": p["product_id"],
            "variants": by_product.get(p["product_id"], {}),
        }
        for p in products
    }


async def read_users(
    conn: Conn, ids: Sequence[str] | None = None, *, for_update: bool = False
) -> dict[str, JsonDict]:
    """Users by id (all when `ids` is None), ordered by id."""
    where = _where("user_id", ids)
    users = await _entity_rows(conn, "users", "user_id", ids, for_update=for_update)
    methods = await _rows(
        conn,
        f"SELECT * FROM payment_methods {where} ORDER BY user_id, position{_lock(for_update)}",
        ids,
    )
    orders = await _rows(
        conn,
        f"SELECT user_id, order_id FROM orders {where}"
        f"{' AND' if ids is not None else ' WHERE'} user_position IS NOT NULL"
        " ORDER BY user_id, user_position",
        ids,
    )
    by_user: dict[str, JsonDict] = defaultdict(dict)
    for m in methods:
        by_user[m["user_id"]][m["id"]] = _payment_method(m)
    order_ids: dict[str, list[str]] = defaultdict(list)
    for o in orders:
        order_ids[o["user_id"]].append(o["order_id"])
    return {
        u["user_id"]: {
            "user_id": u["user_id"],
            "name": {"first_name": u["first_name"], "last_name": u["last_name"]},
            "address": _address(u),
            "email": u["email"],
            "payment_methods": by_user.get(u["user_id"], {}),
            "orders": order_ids.get(u["user_id"], []),
        }
        for u in users
    }


async def read_orders(
    conn: Conn, ids: Sequence[str] | None = None, *, for_update: bool = False
) -> dict[str, JsonDict]:
    """Orders by id (all when `ids` is None), ordered by id, every optional field present."""
    where = _where("order_id", ids)
    orders = await _entity_rows(conn, "orders", "order_id", ids, for_update=for_update)
    items = await _order_items(conn, where, ids)
    fulfillments = await _fulfillments(conn, where, ids)
    payments: dict[str, list[JsonDict]] = defaultdict(list)
    for p in await _rows(
        conn, f"SELECT * FROM order_payments {where} ORDER BY order_id, position", ids
    ):
        payments[p["order_id"]].append(
            {
                "transaction_type": p["transaction_type"],
                "amount": to_float(p["amount"]),
                "payment_method_id": p["payment_method_id"],
            }
        )
    requests: dict[tuple[str, str], list[str]] = defaultdict(list)
    for r in await _rows(
        conn, f"SELECT * FROM order_request_items {where} ORDER BY order_id, kind, position", ids
    ):
        requests[(r["order_id"], r["kind"])].append(r["item_id"])
    return {o["order_id"]: _order(o, items, fulfillments, payments, requests) for o in orders}


def _order(
    o: DictRow,
    items: dict[str, list[JsonDict]],
    fulfillments: dict[str, list[JsonDict]],
    payments: dict[str, list[JsonDict]],
    requests: dict[tuple[str, str], list[str]],
) -> JsonDict:
    oid = o["order_id"]

    def request_list(field: str) -> list[str] | None:
        flag = "has_" + field
        return list(requests.get((oid, REQUEST_KINDS[field]), [])) if o[flag] else None

    return {
        "order_id": oid,
        "user_id": o["user_id"],
        "address": _address(o),
        "items": items.get(oid, []),
        "status": o["status"],
        "fulfillments": fulfillments.get(oid, []),
        "payment_history": payments.get(oid, []),
        "cancel_reason": o["cancel_reason"],
        "exchange_items": request_list("exchange_items"),
        "exchange_new_items": request_list("exchange_new_items"),
        "exchange_payment_method_id": o["exchange_payment_method_id"],
        "exchange_price_difference": optional_float(
            o["exchange_price_difference"], o["exchange_price_difference_negative_zero"]
        ),
        "return_items": request_list("return_items"),
        "return_payment_method_id": o["return_payment_method_id"],
    }


async def _order_items(
    conn: Conn, where: str, ids: Sequence[str] | None
) -> dict[str, list[JsonDict]]:
    options = await _options(
        conn,
        "SELECT order_id || '/' || item_position AS key, name, value"
        f" FROM order_item_options {where} ORDER BY order_id, item_position, position",
        ids,
    )
    items: dict[str, list[JsonDict]] = defaultdict(list)
    for i in await _rows(
        conn, f"SELECT * FROM order_items {where} ORDER BY order_id, position", ids
    ):
        items[i["order_id"]].append(
            {
                "name": i["name"],
                "product_id": i["product_id"],
                "item_id": i["item_id"],
                "price": to_float(i["price"]),
                "options": options.get(f"{i['order_id']}/{i['position']}", {}),
            }
        )
    return items


async def _fulfillments(
    conn: Conn, where: str, ids: Sequence[str] | None
) -> dict[str, list[JsonDict]]:
    lists: dict[tuple[str, str, int], list[str]] = defaultdict(list)
    for table, column, kind in (
        ("fulfillment_tracking_ids", "tracking_id", "tracking_id"),
        ("fulfillment_items", "item_id", "item_ids"),
    ):
        query = (
            f"SELECT order_id, fulfillment_position AS fp, {column} AS value FROM {table}"
            f" {where} ORDER BY order_id, fulfillment_position, position"
        )
        for r in await _rows(conn, query, ids):
            lists[(kind, r["order_id"], r["fp"])].append(r["value"])
    result: dict[str, list[JsonDict]] = defaultdict(list)
    for f in await _rows(
        conn, f"SELECT * FROM order_fulfillments {where} ORDER BY order_id, position", ids
    ):
        key = (f["order_id"], f["position"])
        result[f["order_id"]].append(
            {
                "tracking_id": lists.get(("tracking_id", *key), []),
                "item_ids": lists.get(("item_ids", *key), []),
            }
        )
    return result


def _payment_method(m: DictRow) -> JsonDict:
    method: JsonDict = {"source": m["source"], "id": m["id"]}
    if m["source"] == "credit_card":
        method["brand"] = m["brand"]
        method["last_four"] = m["last_four"]
    elif m["source"] == "gift_card":
        method["balance"] = to_float(m["balance"], m["balance_negative_zero"])
    return method


def _address(row: DictRow) -> JsonDict:
    return {column: row[column] for column in ADDRESS_COLUMNS}


async def _options(conn: Conn, query: str, ids: Sequence[str] | None) -> dict[str, JsonDict]:
    options: dict[str, JsonDict] = defaultdict(dict)
    for r in await _rows(conn, query, ids):
        options[r["key"]][r["name"]] = r["value"]
    return options


async def _entity_rows(
    conn: Conn, table: str, key: str, ids: Sequence[str] | None, *, for_update: bool = False
) -> list[DictRow]:
    """The rows of an entity's own table, ordered (and optionally locked) by its key."""
    query = f"SELECT * FROM {table} {_where(key, ids)} ORDER BY {key}{_lock(for_update)}"
    return await _rows(conn, query, ids)


def _lock(for_update: bool) -> str:
    return " FOR UPDATE" if for_update else ""


def _where(column: str, ids: Sequence[str] | None) -> str:
    return "" if ids is None else f"WHERE {column} = ANY(%(ids)s)"


async def _rows(conn: Conn, query: str, ids: Sequence[str] | None) -> list[DictRow]:
    params = None if ids is None else {"ids": list(ids)}
    cur = await conn.execute(query, params)
    return await cur.fetchall()
