"""Synthesised carrier history for tracking ids that have none.

tau2 orders carry tracking ids but no logistics data. Each history here is
seeded from its tracking id alone, so it is identical on every machine and
every load, and it agrees with the order's status: delivered orders end
delivered, processed ones are in transit (some stalled past their promised
date), cancelled ones were cancelled before pickup, pending ones only have a
label. Times are relative to a fixed data clock (`TRACKING_AS_OF`), not the
wall clock, so "late" means the same thing in every run.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

# tau2's policy: all times in the database are EST.
EST = timezone(timedelta(hours=-5), "EST")
TRACKING_AS_OF = datetime(2025, 3, 14, 12, 0, tzinfo=EST)
STALL_RATE = 0.15

CARRIERS = ("Parcelway", "Northstar Freight", "SwiftRoute", "Bluebird Express")
WAREHOUSES = ("Reno, NV", "Memphis, TN", "Allentown, PA", "Columbus, OH", "Fort Worth, TX")
HUBS = (
    "Louisville, KY",
    "Indianapolis, IN",
    "Kansas City, MO",
    "Atlanta, GA",
    "Salt Lake City, UT",
    "Harrisburg, PA",
    "Denver, CO",
    "Nashville, TN",
    "Sacramento, CA",
    "Chicago, IL",
    "Phoenix, AZ",
    "Charlotte, NC",
)
DELAY_REASONS = (
    "severe weather in the region",
    "sorting backlog at the facility",
    "vehicle breakdown",
    "address needs verification",
)
DROP_SPOTS = ("front door", "mailroom", "handed to resident", "parcel locker")
_KIND_BY_STATUS = {
    "delivered": "delivered",
    "return requested": "delivered",
    "exchange requested": "delivered",
    "processed": "in_transit",
    "cancelled": "cancelled",
}


@dataclass(frozen=True)
class TrackingEvent:
    """One carrier scan."""

    seq: int
    occurred_at: datetime
    location: str
    event_code: str
    description: str


@dataclass(frozen=True)
class SyntheticShipment:
    """A shipment and its scans, oldest first."""

    tracking_id: str
    carrier: str
    origin: str
    destination: str
    promised_delivery_date: date
    status: str
    events: tuple[TrackingEvent, ...]


@dataclass(frozen=True)
class _Step:
    code: str
    location: str
    description: str
    hours: float  # since the label was created


def synthesize_shipment(
    tracking_id: str, order_status: str, destination: str, *, as_of: datetime = TRACKING_AS_OF
) -> SyntheticShipment:
    """The deterministic history of one tracking id for an order in `order_status`."""
    rng = random.Random(int.from_bytes(hashlib.sha256(tracking_id.encode()).digest()[:8]))
    carrier, origin = rng.choice(CARRIERS), rng.choice(WAREHOUSES)
    route = _route(rng, carrier, origin, rng.sample(HUBS, rng.randint(1, 3)), destination)
    transit_days = rng.randint(3, 7)
    kind = _KIND_BY_STATUS.get(order_status, "label_created")
    if kind == "delivered":
        end = as_of - timedelta(days=rng.randint(8, 60), hours=rng.randint(0, 23))
        steps, status = route, "delivered"
        start = end - timedelta(hours=route[-1].hours)
        promised = (start + timedelta(days=transit_days)).date()
    elif kind == "in_transit":
        steps, status, start, promised = _in_transit(rng, route, as_of)
    elif kind == "cancelled":
        start = as_of - timedelta(days=rng.randint(10, 60))
        cancel = _Step("cancelled", origin, "Shipment cancelled before pickup", rng.randint(2, 30))
        steps, status = [route[0], cancel], "cancelled"
        promised = (start + timedelta(days=transit_days)).date()
    else:
        start = as_of - timedelta(hours=rng.randint(1, 20))
        steps, status = [route[0]], "label_created"
        promised = (start + timedelta(days=transit_days)).date()
    events = tuple(
        TrackingEvent(
            seq, _minute(start + timedelta(hours=s.hours)), s.location, s.code, s.description
        )
        for seq, s in enumerate(steps)
    )
    return SyntheticShipment(tracking_id, carrier, origin, destination, promised, status, events)


def _in_transit(
    rng: random.Random, route: list[_Step], as_of: datetime
) -> tuple[list[_Step], str, datetime, date]:
    # Processed orders are somewhere between pickup and the doorstep.
    if rng.random() < STALL_RATE:
        hubs = [i for i, s in enumerate(route) if s.code == "arrived_at_hub"]
        cut = rng.choice(hubs)
        hub = route[cut]
        reason = rng.choice(DELAY_REASONS)
        delay = _Step("delay", hub.location, f"Delayed: {reason}", hub.hours + rng.randint(3, 12))
        steps = [*route[: cut + 1], delay]
        start = as_of - timedelta(days=rng.randint(2, 6), hours=delay.hours)
        promised = min((start + timedelta(days=rng.randint(2, 4))).date(), as_of.date())
        return steps, "delayed", start, promised - timedelta(days=1)
    cut = rng.randint(1, len(route) - 2)  # never the final "delivered" scan
    steps = route[: cut + 1]
    start = as_of - timedelta(hours=steps[-1].hours + rng.randint(1, 10))
    promised = as_of.date() + timedelta(days=rng.randint(1, 4))
    status = "out_for_delivery" if steps[-1].code == "out_for_delivery" else "in_transit"
    return steps, status, start, promised


def _route(
    rng: random.Random, carrier: str, origin: str, hubs: list[str], destination: str
) -> list[_Step]:
    hours = 0.0
    steps = [
        _Step("label_created", origin, f"Shipping label created; {carrier} awaits the item", 0)
    ]

    def add(code: str, location: str, description: str, low: int, high: int) -> None:
        nonlocal hours
        hours += rng.randint(low * 60, high * 60) / 60
        steps.append(_Step(code, location, description, hours))

    add("picked_up", origin, f"Picked up by {carrier}", 2, 10)
    for hub in hubs:
        add("arrived_at_hub", hub, f"Arrived at {carrier} hub", 6, 20)
        add("departed_hub", hub, f"Departed {carrier} hub", 2, 8)
    add("out_for_delivery", destination, "Out for delivery", 8, 20)
    add("delivered", destination, f"Delivered: {rng.choice(DROP_SPOTS)}", 2, 8)
    return steps


def _minute(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0)
