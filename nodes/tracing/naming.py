"""How a turn's identities appear in traces: a hashed customer, W3C trace parents."""

from __future__ import annotations

import hashlib

from opentelemetry import trace
from opentelemetry.trace import Link, Span
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

CUSTOMER_HASH_CHARS = 16
_PROPAGATOR = TraceContextTextMapPropagator()


def customer_hash(customer_id: str) -> str:
    """The customer as traces name them: a sha256 prefix, never the id itself."""
    return hashlib.sha256(customer_id.encode()).hexdigest()[:CUSTOMER_HASH_CHARS]


def traceparent(span: Span) -> str:
    """`span`'s W3C `traceparent` header value."""
    carrier: dict[str, str] = {}
    _PROPAGATOR.inject(carrier, context=trace.set_span_in_context(span))
    return carrier.get("traceparent", "")


def link_to(parent: str | None) -> Link | None:
    """A link to the span a stored `traceparent` names; None when it names none."""
    if not parent:
        return None
    context = trace.get_current_span(_PROPAGATOR.extract({"traceparent": parent}))
    span_context = context.get_span_context()
    return Link(span_context) if span_context.is_valid else None
