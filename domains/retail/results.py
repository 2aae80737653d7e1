"""The result of every retail skill as a typed model, keyed by skill id.

Each model states exactly what the skill's tool returns (`extra="forbid"`), so
the runtime can validate a result and the answers layer can read one without
guessing keys. Skills answering plain text (an id, a sum, tau2's transfer line,
product types as JSON text) are `Text` root models.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, RootModel, ValidationError

from skills.knowledge.search import SearchHit


class _Result(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Text(RootModel[str]):
    """A plain-text result."""

    model_config = ConfigDict(frozen=True)


class ProductTypes(RootModel[dict[str, str]]):
    """`list_all_product_types_v1`'s JSON text once decoded: product name -> product id."""

    model_config = ConfigDict(frozen=True)


class Address(_Result):
    """A postal address as tau2 stores it."""

    address1: str
    address2: str
    city: str
    country: str
    state: str
    zip: str


class OrderItem(_Result):
    """One order line: the variant bought and what it cost."""

    name: str
    product_id: str
    item_id: str
    price: float
    options: dict[str, str]


class Fulfillment(_Result):
    """One shipment of an order: its tracking ids and the items it carries."""

    tracking_id: list[str]
    item_ids: list[str]


class Payment(_Result):
    """One payment or refund on an order."""

    transaction_type: str
    amount: float
    payment_method_id: str


class Order(_Result):
    """`get_order_details_v1` and every order write: the whole order after the call."""

    order_id: str
    user_id: str
    address: Address
    items: list[OrderItem]
    status: str
    fulfillments: list[Fulfillment]
    payment_history: list[Payment]
    cancel_reason: str | None = None
    exchange_items: list[str] | None = None
    exchange_new_items: list[str] | None = None
    exchange_payment_method_id: str | None = None
    exchange_price_difference: float | None = None
    return_items: list[str] | None = None
    return_payment_method_id: str | None = None


class PersonName(_Result):
    """A customer's name."""

    first_name: str
    last_name: str


class PaymentMethod(_Result):
    """A stored payment method; card fields and balance only where they apply."""

    source: str
    id: str
    brand: str | None = None
    last_four: str | None = None
    balance: float | None = None


class User(_Result):
    """`get_user_details_v1` and `modify_user_address_v1`: the customer's account."""

    user_id: str
    name: PersonName
    address: Address
    email: str
    payment_methods: dict[str, PaymentMethod]
    orders: list[str]


class Variant(_Result):
    """`get_item_details_v1`: one purchasable variant."""

    item_id: str
    options: dict[str, str]
    available: bool
    price: float


class Product(_Result):
    """`get_product_details_v1`: a product with its variants by item id."""

    name: str
    product_id: str
    variants: dict[str, Variant]


class TrackingEvent(_Result):
    """One carrier scan."""

    seq: int
    occurred_at: str
    location: str
    event_code: str
    description: str


class TrackedShipment(_Result):
    """A shipment with its scans, oldest first."""

    tracking_id: str
    carrier: str
    origin: str
    destination: str
    promised_delivery_date: str
    status: str
    events: list[TrackingEvent]


class ArrivalEstimate(_Result):
    """When one shipment should arrive, and how sure that is."""

    tracking_id: str
    promised_delivery_date: str
    state: str
    estimated_delivery: str | None
    on_time: bool | None
    confidence: float
    basis: str


class DelayVerdict(_Result):
    """Whether one shipment is late, with confidence and evidence."""

    tracking_id: str
    verdict: str
    confidence: float
    evidence: list[str]


class _ShipmentQuery(_Result):
    # The tools answer under the key they were asked by: an order or one tracking id.
    order_id: str | None = None
    tracking_id: str | None = None


class Tracking(_ShipmentQuery):
    """`track_shipment_v1`."""

    shipments: list[TrackedShipment]


class Eta(_ShipmentQuery):
    """`calculate_eta_v1`."""

    shipments: list[ArrivalEstimate]


class DelayReport(_ShipmentQuery):
    """`detect_delay_pattern_v1`."""

    shipments: list[DelayVerdict]


class Summary(_Result):
    """`generate_summary_v1`."""

    summary: str
    sources: list[str]


class Notification(_Result):
    """`send_notification_v1`: the queued message, recipient masked."""

    notification_id: int
    recipient: str
    status: str
    message_id: str | None


class KnowledgeSearch(_Result):
    """`search_knowledge_v1`."""

    query: str
    partitions: list[str]
    results: list[SearchHit]


class FaqAnswer(_Result):
    """One cached FAQ entry matching the question."""

    question: str
    answer: str
    lang: str
    slug: str
    score: float


class FaqLookup(_Result):
    """`faq_cache_lookup_v1`."""

    question: str
    answers: list[FaqAnswer]


RESULTS: Mapping[str, type[BaseModel]] = {
    "calculate_eta_v1": Eta,
    "calculate_v1": Text,
    "cancel_pending_order_v1": Order,
    "detect_delay_pattern_v1": DelayReport,
    "exchange_delivered_order_items_v1": Order,
    "faq_cache_lookup_v1": FaqLookup,
    "find_user_id_by_email_v1": Text,
    "find_user_id_by_name_zip_v1": Text,
    "generate_summary_v1": Summary,
    "get_item_details_v1": Variant,
    "get_order_details_v1": Order,
    "get_product_details_v1": Product,
    "get_user_details_v1": User,
    "list_all_product_types_v1": Text,
    "modify_pending_order_address_v1": Order,
    "modify_pending_order_items_v1": Order,
    "modify_pending_order_payment_v1": Order,
    "modify_user_address_v1": User,
    "return_delivered_order_items_v1": Order,
    "search_knowledge_v1": KnowledgeSearch,
    "send_notification_v1": Notification,
    "track_shipment_v1": Tracking,
    "transfer_to_human_agents_v1": Text,
}

M = TypeVar("M", bound=BaseModel)


def parse(model: type[M], payload: object) -> M | None:
    """`payload` read as `model`, or None when it does not fit (then nothing is said of it)."""
    try:
        return model.model_validate(payload)
    except ValidationError:
        return None
