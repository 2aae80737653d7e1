"""The reference-data generator: deterministic, complete, valid tau2 data."""

from __future__ import annotations

from collections import Counter

from domains.retail.storage.canonical import canonical_hash, document_canonical
from domains.retail.storage.generator import reference_document
from domains.retail.storage.models import ORDER_STATUSES


def test_same_seed_same_hash_other_seed_other_data() -> None:
    first = canonical_hash(document_canonical(reference_document(7)))
    assert first == canonical_hash(document_canonical(reference_document(7)))
    assert first != canonical_hash(document_canonical(reference_document(8)))


def test_sizes_statuses_and_payment_kinds() -> None:
    document = reference_document(7)
    assert len(document.products) == 50
    assert len(document.users) == 500
    assert len(document.orders) == 1000
    assert all(len(p.variants) >= 4 for p in document.products.values())
    assert set(Counter(o.status for o in document.orders.values())) == set(ORDER_STATUSES)
    kinds = {m.source for u in document.users.values() for m in u.payment_methods.values()}
    assert kinds == {"credit_card", "paypal", "gift_card"}


def test_orders_carry_the_fields_their_status_implies() -> None:
    document = reference_document(3)
    for order in document.orders.values():
        shipped = order.status in (
            "processed",
            "delivered",
            "return requested",
            "exchange requested",
        )
        assert bool(order.fulfillments) == shipped
        assert (order.cancel_reason is not None) == (order.status == "cancelled")
        assert (order.return_items is not None) == (order.status == "return requested")
        assert (order.exchange_items is not None) == (order.status == "exchange requested")
        if order.status == "exchange requested":
            assert order.exchange_new_items and order.exchange_price_difference is not None
            assert len(order.exchange_items or []) == len(order.exchange_new_items)
        if order.status == "cancelled":
            assert [p.transaction_type for p in order.payment_history] == ["payment", "refund"]
        user = document.users[order.user_id]
        assert order.order_id in user.orders
        assert all(p.payment_method_id in user.payment_methods for p in order.payment_history)


def test_variants_referenced_by_orders_exist_in_their_product() -> None:
    document = reference_document(7)
    for order in document.orders.values():
        for item in order.items:
            variant = document.products[item.product_id].variants[item.item_id]
            assert variant.options == item.options
