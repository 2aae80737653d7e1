"""Retail sentences for what a read found, and the delay verdict arbitration weighs.

Every payload is read through its result model (`domains.retail.results`);
text fields in it are already quoted by the harness.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

from domains.retail.results import (
    ArrivalEstimate,
    DelayReport,
    DelayVerdict,
    Eta,
    FaqLookup,
    KnowledgeSearch,
    Order,
    TrackedShipment,
    Tracking,
    User,
    parse,
)
from nodes.contracts import Decision
from nodes.domain import Stance

HELP_CENTRE = "From our help centre: {}"
KNOWLEDGE_CONFIDENCE = 0.5
"""A document about delays is context, not a verdict on this shipment."""
VERDICTS: Mapping[str, str] = {
    "delayed": "the shipment is delayed",
    "at_risk": "the shipment may arrive late",
    "on_track": "the shipment is on track",
    "delivered_late": "the shipment was delivered late",
    "delivered_on_time": "the shipment was delivered on time",
    "cancelled": "the shipment was cancelled",
}
# Most telling first: with several shipments, the worst one answers "why late".
_SEVERITY = ("delayed", "delivered_late", "at_risk", "cancelled", "on_track", "delivered_on_time")


def read_sentences(skill: str, payload: object) -> list[str]:
    """What one succeeded read found, or nothing when its payload does not fit its model."""
    describe = _READS.get(skill)
    return describe(payload) if describe else []


def stance(skill: str, payload: object) -> Stance | None:
    """The delay detector's verdict, or the top knowledge document, as an answer to "why late"."""
    if skill == "detect_delay_pattern_v1":
        report = parse(DelayReport, payload)
        return _worst(report.shipments) if report else None
    if skill in ("search_knowledge_v1", "faq_cache_lookup_v1"):
        search = parse(KnowledgeSearch, payload)
        if search and search.results:
            top = search.results[0]
            return Stance(top.topic or top.title, KNOWLEDGE_CONFIDENCE, (top.snippet,))
        faq = parse(FaqLookup, payload)
        if faq and faq.answers:
            return Stance(faq.answers[0].slug, KNOWLEDGE_CONFIDENCE, (faq.answers[0].answer,))
    return None


def delay_decision(decision: Decision) -> str:
    """A detector verdict is told with its evidence; any other answer as the likely reason."""
    words = VERDICTS.get(decision.answer)
    if words is None:
        return f"Most likely reason for the delay: {decision.answer}."
    backing = [p for p in decision.proposals if p.answer == decision.answer]
    evidence = "; ".join(e for p in backing[:1] for e in p.evidence if e)
    return f"Delay check: {words}" + (f" ({evidence})." if evidence else ".")


def _worst(shipments: list[DelayVerdict]) -> Stance | None:
    ranked = sorted(
        shipments,
        key=lambda s: _SEVERITY.index(s.verdict) if s.verdict in _SEVERITY else len(_SEVERITY),
    )
    if not ranked:
        return None
    top = ranked[0]
    return Stance(top.verdict, top.confidence, tuple(top.evidence))


def _order(payload: object) -> list[str]:
    order = parse(Order, payload)
    return [f"Order {order.order_id} is {order.status}."] if order else []


def _user(payload: object) -> list[str]:
    user = parse(User, payload)
    return [f"Your orders: {', '.join(user.orders)}."] if user else []


def _tracking(payload: object) -> list[str]:
    tracking = parse(Tracking, payload)
    if tracking is None:
        return []
    if not tracking.shipments:
        if tracking.order_id is None:
            return []
        return [f"No shipment of order {tracking.order_id} is tracked yet."]
    return ["; ".join(_scan(s) for s in tracking.shipments) + "."]


def _scan(shipment: TrackedShipment) -> str:
    last = shipment.events[-1] if shipment.events else None
    what = (last.description if last else "") or shipment.status
    where = (last.location if last else "") or "unknown location"
    return f"Shipment {shipment.tracking_id}: {what} at {where}"


def _eta(payload: object) -> list[str]:
    eta = parse(Eta, payload)
    told = [_arrival(s) for s in eta.shipments] if eta else []
    return [sentence for sentence in told if sentence]


def _arrival(estimate: ArrivalEstimate) -> str:
    if estimate.estimated_delivery is None:
        return ""
    day = datetime.fromisoformat(estimate.estimated_delivery).date().isoformat()
    if estimate.state == "delivered":
        return f"Shipment {estimate.tracking_id} was delivered on {day}."
    late = " (later than the promised date)" if estimate.on_time is False else ""
    return f"Shipment {estimate.tracking_id}: estimated delivery {day}{late}."


def _knowledge(payload: object) -> list[str]:
    search = parse(KnowledgeSearch, payload)
    if search is not None:
        hits = search.results
        return [HELP_CENTRE.format((hits[0].snippet or hits[0].title)[:300])] if hits else []
    # The answer of `faq_cache_lookup_v1`, also when it stands in for a failed search.
    faq = parse(FaqLookup, payload)
    return [HELP_CENTRE.format(faq.answers[0].answer[:300])] if faq and faq.answers else []


_READS: Mapping[str, Callable[[object], list[str]]] = {
    "get_order_details_v1": _order,
    "get_user_details_v1": _user,
    "track_shipment_v1": _tracking,
    "calculate_eta_v1": _eta,
    "search_knowledge_v1": _knowledge,
    "faq_cache_lookup_v1": _knowledge,
}
