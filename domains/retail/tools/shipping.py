"""Logistics reasoning over one shipment's tracking history (pure functions).

A shipment is the data layer's dict: carrier, promised_delivery_date (ISO
date), status and events oldest first, each with an ISO `occurred_at` and an
`event_code`. Nothing here reads a clock: `now` is passed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any

Shipment = Mapping[str, Any]

DEFAULT_STALL_HOURS = 48.0
FINAL_CODES = ("delivered", "cancelled")
# Typical hours from a scan of this kind to the doorstep (carrier averages).
_REMAINING_HOURS = {
    "label_created": 96.0,
    "picked_up": 72.0,
    "arrived_at_hub": 48.0,
    "departed_hub": 36.0,
    "delay": 72.0,
    "out_for_delivery": 6.0,
}


def estimate_arrival(shipment: Shipment, now: datetime) -> dict[str, Any]:
    """When the parcel should arrive, and how sure that is, from its last scan."""
    promised = date.fromisoformat(shipment["promised_delivery_date"])
    last = _last_event(shipment)
    base = {"tracking_id": shipment["tracking_id"], "promised_delivery_date": promised.isoformat()}
    if last is None or last["event_code"] in FINAL_CODES:
        return {**base, **_final_arrival(last, promised)}
    scanned = _moment(last["occurred_at"])
    remaining = timedelta(hours=_REMAINING_HOURS.get(last["event_code"], 72.0))
    estimate = scanned + remaining
    stale = estimate < now
    if stale:
        # A parcel cannot arrive in the past: a stale scan pushes the estimate from now.
        estimate = now + remaining / 2
    uncertain = stale or last["event_code"] == "delay"
    return {
        **base,
        "state": "in_transit",
        "estimated_delivery": estimate.isoformat(),
        "on_time": estimate.date() <= promised,
        "confidence": 0.4 if uncertain else 0.8,
        "basis": f"last scan {last['event_code']} at {last['occurred_at']}",
    }


def _final_arrival(last: Mapping[str, Any] | None, promised: date) -> dict[str, Any]:
    if last is None:
        return {
            "state": "unknown",
            "estimated_delivery": None,
            "on_time": None,
            "confidence": 0.0,
            "basis": "no scans yet",
        }
    at = last["occurred_at"]
    return {
        "state": last["event_code"],
        "estimated_delivery": at if last["event_code"] == "delivered" else None,
        "on_time": _moment(at).date() <= promised if last["event_code"] == "delivered" else None,
        "confidence": 1.0,
        "basis": f"last scan {last['event_code']} at {at}",
    }


def detect_delay(
    shipment: Shipment, now: datetime, stall_hours: float = DEFAULT_STALL_HOURS
) -> dict[str, Any]:
    """A verdict (`on_track`, `at_risk`, `delayed`, `delivered_late`, ...) with evidence."""
    events = list(shipment["events"])
    promised = date.fromisoformat(shipment["promised_delivery_date"])
    last = _last_event(shipment)
    evidence: list[str] = []
    final = last is not None and last["event_code"] in FINAL_CODES
    if final and last is not None:
        return _final_verdict(shipment, last, promised)
    if last is not None:
        idle = (now - _moment(last["occurred_at"])).total_seconds() / 3600
        if idle > stall_hours:
            evidence.append(
                f"no scan for {idle:.0f} h (> {stall_hours:g} h) since "
                f"{last['event_code']} at {last['location']}"
            )
    if now.date() > promised:
        evidence.append(f"past the promised date {promised.isoformat()}")
    exceptions = [e for e in events if e["event_code"] == "delay"]
    if exceptions:
        evidence.append(
            f"{len(exceptions)} delay scan(s): " + "; ".join(e["description"] for e in exceptions)
        )
    verdict = (
        "delayed"
        if len(evidence) >= 2 or (len(exceptions) >= 2)
        else ("at_risk" if evidence else "on_track")
    )
    confidence = {0: 0.7, 1: 0.6, 2: 0.8}.get(len(evidence), 0.95)
    return {
        "tracking_id": shipment["tracking_id"],
        "verdict": verdict,
        "confidence": confidence,
        "evidence": evidence,
    }


def _final_verdict(shipment: Shipment, last: Mapping[str, Any], promised: date) -> dict[str, Any]:
    if last["event_code"] == "cancelled":
        verdict, evidence = "cancelled", [f"cancelled at {last['occurred_at']}"]
    else:
        late = _moment(last["occurred_at"]).date() > promised
        verdict = "delivered_late" if late else "delivered_on_time"
        evidence = [f"delivered {last['occurred_at']}, promised {promised.isoformat()}"]
    return {
        "tracking_id": shipment["tracking_id"],
        "verdict": verdict,
        "confidence": 1.0,
        "evidence": evidence,
    }


def _last_event(shipment: Shipment) -> Mapping[str, Any] | None:
    events = shipment["events"]
    return events[-1] if events else None


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text)
