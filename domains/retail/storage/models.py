"""The tau2 retail document as typed models.

Field order matches tau2's own models, so `model_dump()` yields dicts with
the key order tau2 prints and every optional order field present (None where
absent): the canonical form. Unknown fields are rejected rather than
dropped, because a load must be lossless.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

OrderStatus = Literal[
    "pending",
    "pending (item modified)",
    "processed",
    "delivered",
    "cancelled",
    "return requested",
    "exchange requested",
]
# The statuses as values, in the Literal's order (generators weight them by position).
ORDER_STATUSES: tuple[OrderStatus, ...] = get_args(OrderStatus)
CancelReason = Literal["no longer needed", "ordered by mistake"]
CANCEL_REASONS: tuple[CancelReason, ...] = get_args(CancelReason)
# The optional order fields, in tau2's order; the canonical form has them all.
OPTIONAL_ORDER_FIELDS = (
    "cancel_reason",
    "exchange_items",
    "exchange_new_items",
    "exchange_payment_method_id",
    "exchange_price_difference",
    "return_items",
    "return_payment_method_id",
)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Address(_Model):
    """A postal address (users' default address and orders' shipping address)."""

    address1: str
    address2: str
    city: str
    country: str
    state: str
    zip: str


class Variant(_Model):
    """One purchasable item of a product: its options, availability and price."""

    item_id: str
    options: dict[str, str]
    available: bool
    price: float


class Product(_Model):
    """A product type and its variants, keyed by item id."""

    name: str
    product_id: str
    variants: dict[str, Variant]


class UserName(_Model):
    first_name: str
    last_name: str


class CreditCard(_Model):
    source: Literal["credit_card"]
    id: str
    brand: str
    last_four: str


class Paypal(_Model):
    source: Literal["paypal"]
    id: str


class GiftCard(_Model):
    source: Literal["gift_card"]
    id: str
    balance: float


PaymentMethod = Annotated[CreditCard | Paypal | GiftCard, Field(discriminator="source")]


class User(_Model):
    """A customer: profile, payment methods keyed by id, and their order ids."""

    user_id: str
    name: UserName
    address: Address
    email: str
    payment_methods: dict[str, PaymentMethod]
    orders: list[str]


class OrderItem(_Model):
    """An order line: a snapshot of the variant as it was ordered."""

    name: str
    product_id: str
    item_id: str
    price: float
    options: dict[str, str]


class Fulfillment(_Model):
    tracking_id: list[str]
    item_ids: list[str]


class Payment(_Model):
    transaction_type: Literal["payment", "refund"]
    amount: float
    payment_method_id: str


class Order(_Model):
    """An order with its items, fulfillments, payments and request fields."""

    order_id: str
    user_id: str
    address: Address
    items: list[OrderItem]
    status: OrderStatus
    fulfillments: list[Fulfillment]
    payment_history: list[Payment]
    cancel_reason: CancelReason | None = None
    exchange_items: list[str] | None = None
    exchange_new_items: list[str] | None = None
    exchange_payment_method_id: str | None = None
    exchange_price_difference: float | None = None
    return_items: list[str] | None = None
    return_payment_method_id: str | None = None


class Tau2Document(_Model):
    """A whole retail database: products, users and orders keyed by id."""

    products: dict[str, Product]
    users: dict[str, User]
    orders: dict[str, Order]
