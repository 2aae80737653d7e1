"""The tau2 retail write tools as pure functions over documents.

Each function checks in the reference's order (so a failing call fails with
the reference's message) and returns a `Change` holding the new order and, when
a gift card balance or the address moved, the new user. Inputs are never
mutated. Floats are computed exactly as the reference computes them, including
its quirks, because the conformance hash depends on every printed digit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domains.retail.storage.models import CANCEL_REASONS
from domains.retail.tools.documents import (
    OrderDoc,
    ProductDoc,
    UserDoc,
    adjust_balance,
    canonical_order,
    check_counts,
    clone,
    first_item,
    is_gift_card,
    payment_method,
    variant,
)
from skills.errors import DomainError

ADDRESS_FIELDS = ("address1", "address2", "city", "state", "country", "zip")
# The item ids to give up and, position by position, the variants to take instead.
Swap = tuple[list[str], list[str]]


@dataclass(frozen=True)
class Change:
    """The documents an operation rewrote; `user` is None when the user is unchanged."""

    order: OrderDoc | None
    user: UserDoc | None = None


def cancel_pending_order(order: OrderDoc, user: UserDoc, reason: str) -> Change:
    """Cancel a `pending` order, refunding every payment (gift cards at once)."""
    order, user = canonical_order(order), clone(user)
    if order["status"] != "pending":
        raise DomainError("Non-pending order cannot be cancelled")
    if reason not in CANCEL_REASONS:
        raise DomainError("Invalid reason")
    refunds = []
    for payment in order["payment_history"]:
        refunds.append(_entry("refund", payment["amount"], payment["payment_method_id"]))
        method = payment_method(user, payment["payment_method_id"])
        if is_gift_card(method):
            adjust_balance(method, payment["amount"])
    order["status"] = "cancelled"
    order["cancel_reason"] = reason
    order["payment_history"].extend(refunds)
    return Change(order, user)


def modify_pending_order_address(order: OrderDoc, address: Mapping[str, str]) -> Change:
    """Replace the shipping address while the status contains `pending`."""
    order = canonical_order(order)
    if "pending" not in order["status"]:
        raise DomainError("Non-pending order cannot be modified")
    order["address"] = _address(address)
    return Change(order)


def modify_user_address(user: UserDoc, address: Mapping[str, str]) -> Change:
    """Replace a user's default address."""
    user = clone(user)
    user["address"] = _address(address)
    return Change(None, user)


def modify_pending_order_payment(order: OrderDoc, user: UserDoc, payment_method_id: str) -> Change:
    """Pay a single-payment pending order with another method; refund the old one."""
    order, user = canonical_order(order), clone(user)
    if "pending" not in order["status"]:
        raise DomainError("Non-pending order cannot be modified")
    new_method = payment_method(user, payment_method_id)
    history = order["payment_history"]
    if len(history) != 1 or history[0]["transaction_type"] != "payment":
        raise DomainError("There should be exactly one payment for a pending order")
    old_id = history[0]["payment_method_id"]
    if old_id == payment_method_id:
        raise DomainError("The new payment method should be different from the current one")
    amount = history[0]["amount"]
    if is_gift_card(new_method) and new_method["balance"] < amount:
        raise DomainError("Insufficient gift card balance to pay for the order")
    history.extend([_entry("payment", amount, payment_method_id), _entry("refund", amount, old_id)])
    if is_gift_card(new_method):
        adjust_balance(new_method, -amount)
    old_method = payment_method(user, old_id)
    if is_gift_card(old_method):
        adjust_balance(old_method, amount)
    return Change(order, user)


def modify_pending_order_items(
    order: OrderDoc,
    user: UserDoc,
    products: Mapping[str, ProductDoc],
    swap: Swap,
    payment_method_id: str,
) -> Change:
    """Swap items of an exactly-`pending` order for other variants; settle the difference.

    `products` maps product id to product for (at least) the order's products.
    As in the reference, the payment entry carries the unrounded difference and
    every swapped line takes the price and options of the *last* new variant.
    """
    order, user = canonical_order(order), clone(user)
    if order["status"] != "pending":
        raise DomainError("Non-pending order cannot be modified")
    diff, last = _price_difference(
        order,
        products,
        swap,
        counts=("{item_id} not found", "The number of items to be exchanged should match"),
        forbid_same=True,
    )
    method = payment_method(user, payment_method_id)
    if is_gift_card(method) and method["balance"] < diff:
        raise DomainError("Insufficient gift card balance to pay for the new item")
    kind = "payment" if diff > 0 else "refund"
    order["payment_history"].append(_entry(kind, abs(diff), payment_method_id))
    if is_gift_card(method):
        adjust_balance(method, -diff)
    for item_id, new_item_id in zip(*swap, strict=True):
        line = first_item(order, item_id)
        line["item_id"] = new_item_id
        line["price"] = last["price"]
        line["options"] = clone(last["options"])
    order["status"] = "pending (item modified)"
    return Change(order, user)


def return_delivered_order_items(
    order: OrderDoc, user: UserDoc, item_ids: list[str], payment_method_id: str
) -> Change:
    """Request a return of delivered items, refunded to the original method or a gift card."""
    order = canonical_order(order)
    if order["status"] != "delivered":
        raise DomainError("Non-delivered order cannot be returned")
    method = payment_method(user, payment_method_id)
    original = order["payment_history"][0]["payment_method_id"]
    if not is_gift_card(method) and payment_method_id != original:
        raise DomainError("Payment method should be the original payment method")
    check_counts(order, item_ids, "Some item not found")
    order["status"] = "return requested"
    order["return_items"] = sorted(item_ids)
    order["return_payment_method_id"] = payment_method_id
    return Change(order)


def exchange_delivered_order_items(
    order: OrderDoc,
    user: UserDoc,
    products: Mapping[str, ProductDoc],
    swap: Swap,
    payment_method_id: str,
) -> Change:
    """Request an exchange of delivered items for other variants of the same products."""
    order = canonical_order(order)
    if order["status"] != "delivered":
        raise DomainError("Non-delivered order cannot be exchanged")
    diff, _ = _price_difference(
        order,
        products,
        swap,
        counts=(
            "Number of {item_id} not found.",
            "The number of items to be exchanged should match.",
        ),
        forbid_same=False,
    )
    diff = float(round(diff, 2))
    method = payment_method(user, payment_method_id)
    if is_gift_card(method) and method["balance"] < diff:
        raise DomainError("Insufficient gift card balance to pay for the price difference")
    order["status"] = "exchange requested"
    item_ids, new_item_ids = swap
    order["exchange_items"] = sorted(item_ids)
    order["exchange_new_items"] = sorted(new_item_ids)
    order["exchange_payment_method_id"] = payment_method_id
    order["exchange_price_difference"] = diff
    return Change(order)


def _price_difference(
    order: OrderDoc,
    products: Mapping[str, ProductDoc],
    swap: Swap,
    *,
    counts: tuple[str, str],
    forbid_same: bool,
) -> tuple[float, dict[str, Any]]:
    """Sum of new minus old prices, accumulated in the reference's order; also the last variant.

    First the swap's counts are checked; `counts` holds the tool's own wording
    of "an old id is missing" (may contain `{item_id}`) and "lengths differ".
    """
    item_ids, new_item_ids = swap
    check_counts(order, item_ids, counts[0])
    if len(item_ids) != len(new_item_ids):
        raise DomainError(counts[1])
    diff = 0.0
    last: dict[str, Any] = {}
    for item_id, new_item_id in zip(*swap, strict=True):
        if forbid_same and item_id == new_item_id:
            raise DomainError("The new item id should be different from the old item id")
        line = first_item(order, item_id)
        last = variant(products.get(line["product_id"]), new_item_id)
        if not last["available"]:
            raise DomainError(f"New item {new_item_id} not found or available")
        diff += last["price"] - line["price"]
    return diff, last


def _entry(kind: str, amount: float, payment_method_id: str) -> dict[str, Any]:
    return {
        "transaction_type": kind,
        "amount": float(amount),
        "payment_method_id": payment_method_id,
    }


def _address(address: Mapping[str, str]) -> dict[str, str]:
    return {field: address[field] for field in ADDRESS_FIELDS}
