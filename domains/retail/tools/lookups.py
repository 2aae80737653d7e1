"""The tau2 retail read tools as pure functions over documents.

The data layer answers the same questions with indexed queries; these
functions are the reference semantics it is tested against, and what the
in-memory replay uses.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from domains.retail.tools.documents import (
    OrderDoc,
    ProductDoc,
    UserDoc,
    VariantDoc,
    canonical_order,
)
from skills.errors import RecordNotFound


def find_user_id_by_email(users: Mapping[str, UserDoc], email: str) -> str:
    """The id of the first user whose email matches, ignoring case."""
    wanted = email.lower()
    for user_id, user in users.items():
        if user["email"].lower() == wanted:
            return user_id
    raise RecordNotFound("User not found")


def find_user_id_by_name_zip(
    users: Mapping[str, UserDoc], first_name: str, last_name: str, zip_code: str
) -> str:
    """The id of the first user with this name (ignoring case) and exactly this zip."""
    first, last = first_name.lower(), last_name.lower()
    for user_id, user in users.items():
        name = user["name"]
        if (
            name["first_name"].lower() == first
            and name["last_name"].lower() == last
            and user["address"]["zip"] == zip_code
        ):
            return user_id
    raise RecordNotFound("User not found")


def get_order(orders: Mapping[str, OrderDoc], order_id: str) -> OrderDoc:
    if order_id not in orders:
        raise RecordNotFound("Order not found")
    return canonical_order(orders[order_id])


def get_user(users: Mapping[str, UserDoc], user_id: str) -> UserDoc:
    if user_id not in users:
        raise RecordNotFound("User not found")
    return users[user_id]


def get_product(products: Mapping[str, ProductDoc], product_id: str) -> ProductDoc:
    if product_id not in products:
        raise RecordNotFound("Product not found")
    return products[product_id]


def get_item(products: Iterable[ProductDoc], item_id: str) -> VariantDoc:
    """The variant with this item id, whichever product holds it."""
    for product in products:
        variants: dict[str, Any] = product["variants"]
        if item_id in variants:
            found: VariantDoc = variants[item_id]
            return found
    raise RecordNotFound("Item not found")


def list_all_product_types(products: Iterable[ProductDoc]) -> str:
    """JSON text mapping product names to ids, sorted by name (the reference's exact output)."""
    return product_types_json({product["name"]: product["product_id"] for product in products})


def product_types_json(name_to_id: Mapping[str, str]) -> str:
    return json.dumps(dict(name_to_id), sort_keys=True)
