"""tau2-shaped retail documents and the small lookups every operation shares.

Documents are plain JSON objects exactly as tau2 dumps them (see
`db.canonical.json`): an order, a user, a product. Operations never mutate
their inputs; they deep-copy and return new documents.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from domains.retail.storage.models import OPTIONAL_ORDER_FIELDS
from skills.errors import DomainError, RecordNotFound

OrderDoc = dict[str, Any]
UserDoc = dict[str, Any]
ProductDoc = dict[str, Any]
VariantDoc = dict[str, Any]
PaymentMethodDoc = dict[str, Any]


def clone(doc: dict[str, Any]) -> dict[str, Any]:
    """A deep copy, so an operation never changes what the caller holds."""
    return copy.deepcopy(doc)


def canonical_order(order: Mapping[str, Any]) -> OrderDoc:
    """The order with every optional field present (null where absent), as tau2 dumps it."""
    doc = clone(dict(order))
    for field in OPTIONAL_ORDER_FIELDS:
        doc.setdefault(field, None)
    return doc


def payment_method(user: Mapping[str, Any], payment_method_id: str) -> PaymentMethodDoc:
    """The user's payment method, or tau2's 'Payment method not found'."""
    methods: dict[str, PaymentMethodDoc] = user["payment_methods"]
    if payment_method_id not in methods:
        raise RecordNotFound("Payment method not found")
    return methods[payment_method_id]


def is_gift_card(method: Mapping[str, Any]) -> bool:
    return bool(method.get("source") == "gift_card")


def adjust_balance(method: PaymentMethodDoc, delta: float) -> None:
    """Move a gift card's balance by `delta`, rounded to 2 decimals as tau2 does."""
    method["balance"] = float(round(method["balance"] + delta, 2))


def variant(product: Mapping[str, Any] | None, item_id: str) -> VariantDoc:
    """A variant of one product, with tau2's two distinct not-found messages."""
    if product is None:
        raise RecordNotFound("Product not found")
    variants: dict[str, VariantDoc] = product["variants"]
    if item_id not in variants:
        raise RecordNotFound("Variant not found")
    return variants[item_id]


def check_counts(order: Mapping[str, Any], item_ids: list[str], message: str) -> None:
    """Every requested id must occur in the order at least as often as requested.

    `message` may contain `{item_id}`; tau2 words this error differently per tool.
    """
    present = [item["item_id"] for item in order["items"]]
    for item_id in item_ids:
        if item_ids.count(item_id) > present.count(item_id):
            raise DomainError(message.format(item_id=item_id))


def first_item(order: Mapping[str, Any], item_id: str) -> dict[str, Any]:
    """The first order line holding `item_id` (tau2 picks the first match)."""
    for item in order["items"]:
        if item["item_id"] == item_id:
            line: dict[str, Any] = item
            return line
    raise DomainError(f"Item {item_id} not found")
