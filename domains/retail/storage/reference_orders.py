"""Orders for the reference data: every status, each with the fields tau2 sets.

A cancelled order carries its reason and refunds, a modified one its swapped
items and the price-difference payment, return and exchange requests their
item lists and payment method; shipped orders have fulfillments with
tracking ids. Amounts are rounded to cents as the tau2 reference rounds.
"""

from __future__ import annotations

import random
from typing import Any

from domains.retail.storage.models import CANCEL_REASONS, ORDER_STATUSES
from domains.retail.storage.reference_parts import IdMaker, random_address

JsonDict = dict[str, Any]
STATUS_WEIGHTS = (28, 6, 13, 30, 10, 7, 6)  # in ORDER_STATUSES order
SHIPPED = {"processed", "delivered", "return requested", "exchange requested"}


def generate_orders(
    rng: random.Random,
    ids: IdMaker,
    products: dict[str, JsonDict],
    users: dict[str, JsonDict],
    count: int,
) -> dict[str, JsonDict]:
    """`count` orders over `users`; the first ones cover every status once."""
    user_list = list(users.values())
    orders: dict[str, JsonDict] = {}
    for index in range(count):
        if index < len(ORDER_STATUSES):
            status = ORDER_STATUSES[index]
        else:
            status = rng.choices(ORDER_STATUSES, weights=STATUS_WEIGHTS)[0]
        user = rng.choice(user_list)
        order = _order(rng, ids, products, user, status)
        orders[order["order_id"]] = order
        user["orders"].append(order["order_id"])
    return orders


def _order(
    rng: random.Random, ids: IdMaker, products: dict[str, JsonDict], user: JsonDict, status: str
) -> JsonDict:
    items = [
        _item(rng, products) for _ in range(rng.choices((1, 2, 3, 4, 5), (30, 28, 20, 14, 8))[0])
    ]
    if rng.random() < 0.03:
        items.append(dict(items[0]))  # the same variant twice, as tau2 data has
    method = rng.choice(list(user["payment_methods"]))
    address = dict(user["address"]) if rng.random() < 0.9 else random_address(rng)
    order: JsonDict = {
        "order_id": f"#W{ids.digits(7)}",
        "user_id": user["user_id"],
        "address": address,
        "items": items,
        "status": status,
        "fulfillments": _fulfillments(rng, ids, items) if status in SHIPPED else [],
        "payment_history": [_payment("payment", _total(items), method)],
    }
    _apply_status(rng, order, products, user, method)
    return order


def _apply_status(
    rng: random.Random, order: JsonDict, products: dict[str, JsonDict], user: JsonDict, method: str
) -> None:
    status = order["status"]
    if status == "cancelled":
        order["cancel_reason"] = rng.choice(CANCEL_REASONS)
        refunds = [
            _payment("refund", p["amount"], p["payment_method_id"])
            for p in order["payment_history"]
        ]
        order["payment_history"].extend(refunds)
    elif status == "pending (item modified)":
        old, new = _swap(rng, order["items"], products)
        order["items"] = [new.get(i, item) for i, item in enumerate(order["items"])]
        diff = round(_total(list(new.values())) - _total(old), 2)
        if diff:
            kind = "payment" if diff > 0 else "refund"
            order["payment_history"].append(_payment(kind, abs(diff), method))
    elif status == "return requested":
        chosen = rng.sample(order["items"], rng.randint(1, len(order["items"])))
        order["return_items"] = sorted(item["item_id"] for item in chosen)
        gift_cards = [m for m in user["payment_methods"] if m.startswith("gift_card")]
        order["return_payment_method_id"] = rng.choice(gift_cards or [method])
    elif status == "exchange requested":
        old, new = _swap(rng, order["items"], products)
        order["exchange_items"] = sorted(item["item_id"] for item in old)
        order["exchange_new_items"] = sorted(item["item_id"] for item in new.values())
        order["exchange_payment_method_id"] = method
        order["exchange_price_difference"] = round(_total(list(new.values())) - _total(old), 2)


def _swap(
    rng: random.Random, items: list[JsonDict], products: dict[str, JsonDict]
) -> tuple[list[JsonDict], dict[int, JsonDict]]:
    # Swap some items for other variants of the same product (tau2's rule).
    positions = rng.sample(range(len(items)), rng.randint(1, len(items)))
    new: dict[int, JsonDict] = {}
    for position in sorted(positions):
        item = items[position]
        variants = products[item["product_id"]]["variants"]
        others = [v for v in variants.values() if v["item_id"] != item["item_id"]]
        new[position] = _as_item(products[item["product_id"]], rng.choice(others))
    return [items[p] for p in sorted(positions)], new


def _item(rng: random.Random, products: dict[str, JsonDict]) -> JsonDict:
    product = rng.choice(list(products.values()))
    return _as_item(product, rng.choice(list(product["variants"].values())))


def _as_item(product: JsonDict, variant: JsonDict) -> JsonDict:
    return {
        "name": product["name"],
        "product_id": product["product_id"],
        "item_id": variant["item_id"],
        "price": variant["price"],
        "options": dict(variant["options"]),
    }


def _fulfillments(rng: random.Random, ids: IdMaker, items: list[JsonDict]) -> list[JsonDict]:
    item_ids = [item["item_id"] for item in items]
    if len(item_ids) > 1 and rng.random() < 0.2:
        cut = rng.randint(1, len(item_ids) - 1)
        groups = [item_ids[:cut], item_ids[cut:]]
    else:
        groups = [item_ids]
    return [{"tracking_id": [ids.digits(12)], "item_ids": group} for group in groups]


def _payment(kind: str, amount: float, method: str) -> JsonDict:
    return {"transaction_type": kind, "amount": amount, "payment_method_id": method}


def _total(items: list[JsonDict]) -> float:
    return round(sum(float(item["price"]) for item in items), 2)
