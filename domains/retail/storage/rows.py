"""Flatten validated tau2 models into table rows (the columns of `tables.COLUMNS`)."""

from __future__ import annotations

from collections import defaultdict

from domains.retail.storage.models import Address, Order, Product, Tau2Document, User
from domains.retail.storage.money import is_negative_zero, optional_decimal, to_decimal
from domains.retail.storage.tables import DOCUMENT_TABLES, REQUEST_KINDS

Row = tuple[object, ...]
TableRows = dict[str, list[Row]]


def document_rows(document: Tau2Document) -> TableRows:
    """Rows for every document table, keyed by table name."""
    rows: TableRows = defaultdict(list)
    for product in document.products.values():
        _extend(rows, product_rows(product))
    positions = user_positions(document)
    for user in document.users.values():
        _extend(rows, user_rows(user))
    for order in document.orders.values():
        _extend(rows, order_rows(order, positions.get(order.order_id)))
    return {table: rows.get(table, []) for table in DOCUMENT_TABLES}


def user_positions(document: Tau2Document) -> dict[str, int]:
    """Each order's index in its user's `orders` list."""
    return {
        order_id: index
        for user in document.users.values()
        for index, order_id in enumerate(user.orders)
    }


def product_rows(product: Product) -> TableRows:
    rows: TableRows = defaultdict(list)
    rows["products"].append((product.product_id, product.name))
    for position, variant in enumerate(product.variants.values()):
        rows["product_variants"].append(
            (
                variant.item_id,
                product.product_id,
                position,
                to_decimal(variant.price),
                variant.available,
            )
        )
        for index, (name, value) in enumerate(variant.options.items()):
            rows["variant_options"].append((variant.item_id, index, name, value))
    return rows


def user_rows(user: User) -> TableRows:
    rows: TableRows = defaultdict(list)
    rows["users"].append(
        (
            user.user_id,
            user.name.first_name,
            user.name.last_name,
            user.email,
            *_address(user.address),
        )
    )
    for position, method in enumerate(user.payment_methods.values()):
        brand = getattr(method, "brand", None)
        last_four = getattr(method, "last_four", None)
        balance = getattr(method, "balance", None)
        rows["payment_methods"].append(
            (
                method.id,
                user.user_id,
                position,
                method.source,
                brand,
                last_four,
                optional_decimal(balance),
                is_negative_zero(balance),
            )
        )
    return rows


def order_rows(order: Order, user_position: int | None) -> TableRows:
    """Rows of one order; `user_position` is its index in the user's list."""
    rows: TableRows = defaultdict(list)
    rows["orders"].append(_order_row(order, user_position))
    oid = order.order_id
    for pos, item in enumerate(order.items):
        rows["order_items"].append(
            (oid, pos, item.item_id, item.product_id, item.name, to_decimal(item.price))
        )
        for index, (name, value) in enumerate(item.options.items()):
            rows["order_item_options"].append((oid, pos, index, name, value))
    for pos, fulfillment in enumerate(order.fulfillments):
        rows["order_fulfillments"].append((oid, pos))
        for index, tracking_id in enumerate(fulfillment.tracking_id):
            rows["fulfillment_tracking_ids"].append((oid, pos, index, tracking_id))
        for index, item_id in enumerate(fulfillment.item_ids):
            rows["fulfillment_items"].append((oid, pos, index, item_id))
    for pos, payment in enumerate(order.payment_history):
        rows["order_payments"].append(
            (
                oid,
                pos,
                payment.transaction_type,
                to_decimal(payment.amount),
                payment.payment_method_id,
            )
        )
    for field, kind in REQUEST_KINDS.items():
        for pos, item_id in enumerate(getattr(order, field) or ()):
            rows["order_request_items"].append((oid, kind, pos, item_id))
    return rows


def _order_row(order: Order, user_position: int | None) -> Row:
    return (
        order.order_id,
        order.user_id,
        user_position,
        *_address(order.address),
        order.status,
        order.cancel_reason,
        order.return_payment_method_id,
        order.exchange_payment_method_id,
        optional_decimal(order.exchange_price_difference),
        is_negative_zero(order.exchange_price_difference),
        order.return_items is not None,
        order.exchange_items is not None,
        order.exchange_new_items is not None,
    )


def _address(address: Address) -> Row:
    return (
        address.address1,
        address.address2,
        address.city,
        address.country,
        address.state,
        address.zip,
    )


def _extend(into: TableRows, rows: TableRows) -> None:
    for table, table_rows in rows.items():
        into[table].extend(table_rows)
