"""Skills' read → mutate → store cycle is exact, and bad writes change nothing."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.rows import DictRow

from checkpoints.errors import DataFormatError
from domains.retail.storage import (
    canonical_hash,
    export_canonical,
    fetch_order,
    fetch_user,
    load_tau2,
    store_order,
    store_user,
)

Conn = psycopg.AsyncConnection[DictRow]


async def _fresh(conn: Conn, mini_path: Path) -> dict[str, Any]:
    await load_tau2(conn, mini_path)
    return await export_canonical(conn)


async def test_cancel_cycle_reads_back_exactly_and_hashes_as_expected(
    conn: Conn, mini_path: Path
) -> None:
    expected = await _fresh(conn, mini_path)
    async with conn.transaction():
        order = await fetch_order(conn, "#W0000001", for_update=True)
        assert order is not None
        order["status"] = "cancelled"
        order["cancel_reason"] = "ordered by mistake"
        order["payment_history"].append(
            {
                "transaction_type": "refund",
                "amount": 36.5,
                "payment_method_id": "credit_card_1111111",
            }
        )
        await store_order(conn, order)
    assert json.dumps(await fetch_order(conn, "#W0000001")) == json.dumps(order)
    expected["orders"]["#W0000001"] = order
    assert canonical_hash(await export_canonical(conn)) == canonical_hash(expected)
    user = await fetch_user(conn, "ada_novak_1234")
    assert user is not None and user["orders"] == ["#W0000002", "#W0000001"]


async def test_empty_lists_nulls_and_negative_zero_survive(conn: Conn, mini_path: Path) -> None:
    await _fresh(conn, mini_path)
    order = await fetch_order(conn, "#W0000002")
    assert order is not None
    order.update(
        status="exchange requested",
        exchange_items=[],
        exchange_new_items=["2000000003", "2000000003"],
        exchange_payment_method_id="paypal_3333333",
        exchange_price_difference=round(0.3 - 0.1 - 0.2, 2),  # -0.0, as Python computes it
        return_items=None,
        return_payment_method_id=None,
    )
    order["fulfillments"].append({"tracking_id": [], "item_ids": []})
    await store_order(conn, order)
    fetched = await fetch_order(conn, "#W0000002")
    assert json.dumps(fetched) == json.dumps(order)
    assert '"exchange_price_difference": -0.0' in json.dumps(fetched)


async def test_user_rewrite_keeps_order_of_methods_and_orders(conn: Conn, mini_path: Path) -> None:
    await _fresh(conn, mini_path)
    user = await fetch_user(conn, "ada_novak_1234")
    assert user is not None
    methods = user["payment_methods"]
    methods["gift_card_2222222"]["balance"] = round(40.0 - 39.99, 2)
    user["payment_methods"] = {k: methods[k] for k in reversed(list(methods))}
    user["orders"] = list(reversed(user["orders"]))
    user["address"]["address2"] = ""
    await store_user(conn, user)
    assert json.dumps(await fetch_user(conn, "ada_novak_1234")) == json.dumps(user)
    otto = await fetch_user(conn, "otto_szabo_5678")
    assert otto is not None
    otto["payment_methods"]["gift_card_4444444"]["balance"] = -0.0
    await store_user(conn, otto)
    assert '"balance": -0.0' in json.dumps(await fetch_user(conn, "otto_szabo_5678"))


async def test_bad_writes_raise_one_line_and_change_nothing(conn: Conn, mini_path: Path) -> None:
    before = canonical_hash(await _fresh(conn, mini_path))
    order = await fetch_order(conn, "#W0000003")
    user = await fetch_user(conn, "otto_szabo_5678")
    assert order is not None and user is not None
    unknown_method = copy.deepcopy(order)
    unknown_method["payment_history"][0]["payment_method_id"] = "gift_card_0000000"
    missing_field = {k: v for k, v in order.items() if k != "status"}
    foreign_order = copy.deepcopy(user) | {"orders": ["#W0000003", "#W0000001"]}
    stolen_method = copy.deepcopy(user)
    stolen_method["payment_methods"]["paypal_3333333"] = {
        "source": "paypal",
        "id": "paypal_3333333",
    }
    attempts = [
        (store_order, unknown_method, "gift_card_0000000"),
        (store_order, missing_field, "missing field 'status'"),
        (store_user, foreign_order, "'#W0000001' is not an order of this user"),
        (store_user, stolen_method, "belongs to another user"),
    ]
    for writer, entity, fragment in attempts:
        with pytest.raises(DataFormatError) as caught:
            await writer(conn, entity)
        assert fragment in str(caught.value) and "\n" not in str(caught.value)
        assert canonical_hash(await export_canonical(conn)) == before
