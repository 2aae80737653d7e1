"""The retail tables and the columns the loader writes, in foreign-key order."""

from __future__ import annotations

ADDRESS_COLUMNS = ("address1", "address2", "city", "country", "state", "zip")

COLUMNS: dict[str, tuple[str, ...]] = {
    "products": ("product_id", "name"),
    "product_variants": ("item_id", "product_id", "position", "price", "available"),
    "variant_options": ("item_id", "position", "name", "value"),
    "users": ("user_id", "first_name", "last_name", "email", *ADDRESS_COLUMNS),
    "payment_methods": (
        "id",
        "user_id",
        "position",
        "source",
        "brand",
        "last_four",
        "balance",
        "balance_negative_zero",
    ),
    "orders": (
        "order_id",
        "user_id",
        "user_position",
        *ADDRESS_COLUMNS,
        "status",
        "cancel_reason",
        "return_payment_method_id",
        "exchange_payment_method_id",
        "exchange_price_difference",
        "exchange_price_difference_negative_zero",
        "has_return_items",
        "has_exchange_items",
        "has_exchange_new_items",
    ),
    "order_items": ("order_id", "position", "item_id", "product_id", "name", "price"),
    "order_item_options": ("order_id", "item_position", "position", "name", "value"),
    "order_fulfillments": ("order_id", "position"),
    "fulfillment_tracking_ids": ("order_id", "fulfillment_position", "position", "tracking_id"),
    "fulfillment_items": ("order_id", "fulfillment_position", "position", "item_id"),
    "order_payments": ("order_id", "position", "transaction_type", "amount", "payment_method_id"),
    "order_request_items": ("order_id", "kind", "position", "item_id"),
    "shipments": (
        "tracking_id",
        "carrier",
        "origin",
        "destination",
        "promised_delivery_date",
        "status",
    ),
    "tracking_events": (
        "tracking_id",
        "seq",
        "occurred_at",
        "location",
        "event_code",
        "description",
    ),
}

PRODUCT_TABLES = ("products", "product_variants", "variant_options")
USER_TABLES = ("users", "payment_methods")
ORDER_TABLES = (
    "orders",
    "order_items",
    "order_item_options",
    "order_fulfillments",
    "fulfillment_tracking_ids",
    "fulfillment_items",
    "order_payments",
    "order_request_items",
)
# Child tables of an order that `store_order` rewrites (the rest cascade).
ORDER_CHILD_ROOTS = ("order_items", "order_fulfillments", "order_payments", "order_request_items")
DOCUMENT_TABLES = PRODUCT_TABLES + USER_TABLES + ORDER_TABLES
TRACKING_TABLES = ("shipments", "tracking_events")
RETAIL_TABLES = (*DOCUMENT_TABLES, *TRACKING_TABLES)
"""The retail domain's own tables; the outbox (`notifications`) is the harness's."""

# return_items / exchange_items / exchange_new_items map to these row kinds.
REQUEST_KINDS = {
    "return_items": "return",
    "exchange_items": "exchange",
    "exchange_new_items": "exchange_new",
}
