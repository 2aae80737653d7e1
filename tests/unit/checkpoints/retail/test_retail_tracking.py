"""Synthesised tracking: deterministic per tracking id and consistent with the order."""

from __future__ import annotations

from datetime import timedelta

from domains.retail.storage.tracking import TRACKING_AS_OF, synthesize_shipment

TRACKING_IDS = [f"{n:012d}" for n in range(7_000_000_000, 7_000_000_400)]


def test_same_tracking_id_same_history() -> None:
    first = synthesize_shipment("123456789012", "processed", "Boise, ID")
    assert first == synthesize_shipment("123456789012", "processed", "Boise, ID")
    assert first != synthesize_shipment("123456789013", "processed", "Boise, ID")


def test_delivered_orders_end_delivered_in_order_before_the_data_clock() -> None:
    for status in ("delivered", "return requested", "exchange requested"):
        for tracking_id in TRACKING_IDS[:50]:
            shipment = synthesize_shipment(tracking_id, status, "Tulsa, OK")
            codes = [e.event_code for e in shipment.events]
            assert shipment.status == "delivered"
            assert codes[0] == "label_created" and codes[-1] == "delivered"
            assert "picked_up" in codes and "arrived_at_hub" in codes
            times = [e.occurred_at for e in shipment.events]
            assert times == sorted(times) and times[-1] <= TRACKING_AS_OF
            assert [e.seq for e in shipment.events] == list(range(len(codes)))
            assert shipment.events[-1].location == "Tulsa, OK"


def test_processed_orders_are_in_transit_and_some_stall_past_their_promise() -> None:
    shipments = [synthesize_shipment(t, "processed", "Boise, ID") for t in TRACKING_IDS]
    assert all(s.events[-1].event_code != "delivered" for s in shipments)
    assert all(s.events[-1].occurred_at <= TRACKING_AS_OF for s in shipments)
    delayed = [s for s in shipments if s.status == "delayed"]
    on_time = [s for s in shipments if s.status in ("in_transit", "out_for_delivery")]
    assert len(delayed) + len(on_time) == len(shipments)
    assert 0.05 < len(delayed) / len(shipments) < 0.3
    assert all(s.promised_delivery_date < TRACKING_AS_OF.date() for s in delayed)
    assert all(s.events[-1].event_code == "delay" for s in delayed)
    assert all(s.promised_delivery_date > TRACKING_AS_OF.date() for s in on_time)


def test_cancelled_and_pending_orders() -> None:
    cancelled = synthesize_shipment("111111111111", "cancelled", "Boise, ID")
    assert [e.event_code for e in cancelled.events] == ["label_created", "cancelled"]
    assert cancelled.status == "cancelled"
    pending = synthesize_shipment("111111111111", "pending", "Boise, ID")
    assert [e.event_code for e in pending.events] == ["label_created"]
    assert pending.status == "label_created"


def test_history_moves_with_the_data_clock() -> None:
    later = TRACKING_AS_OF + timedelta(days=3)
    base = synthesize_shipment("222222222222", "delivered", "Boise, ID")
    moved = synthesize_shipment("222222222222", "delivered", "Boise, ID", as_of=later)
    assert [e.occurred_at + timedelta(days=3) for e in base.events] == [
        e.occurred_at for e in moved.events
    ]
