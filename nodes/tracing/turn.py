"""The root span of a turn the Python API runs, and what links a resumed turn to it.

A turn that stops for an operator's approval is finished by another run,
often in another process. The first run's `traceparent` is kept in the
checkpoint metadata of every run of the turn (`TURN_TRACE_KEY`, passed as run
metadata, which LangGraph writes into the checkpoints it saves); a resumed run
reads it back and starts its root span with a link to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from langchain_core.callbacks import BaseCallbackHandler
from opentelemetry.trace import Span, Status, StatusCode

from nodes.tracing.naming import customer_hash, link_to, traceparent
from nodes.tracing.provider import tracer
from nodes.tracing.spans import SpanRecorder

TURN_TRACE_KEY = "rolegraph_turn_trace"
"""Run (and so checkpoint) metadata key: the `traceparent` of the turn's first run."""


@dataclass
class TurnTrace:
    """What a traced run passes to the graph, and its root span to finish."""

    callbacks: list[BaseCallbackHandler] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    span: Span | None = None

    def finish(self, *, audit_id: str | None, customer: str | None, status: str) -> None:
        """Name what the run found out: its audit id, customer and where it stopped."""
        if self.span is None:
            return
        if audit_id:
            self.span.set_attribute("rolegraph.audit_id", audit_id)
        if customer:
            self.span.set_attribute("rolegraph.customer_hash", customer_hash(customer))
        self.span.set_attribute("rolegraph.status", status)


@contextmanager
def turn_trace(
    *, thread_id: str, mode: str, customer: str | None, resumed_from: str | None
) -> Iterator[TurnTrace]:
    """A root span around one run of a turn; a no-op when tracing is off.

    `resumed_from` is the `traceparent` of the turn's first run when this run
    resumes it (an approval answered, a crashed run continued).
    """
    found = tracer()
    if found is None:
        yield TurnTrace()
        return
    link = link_to(resumed_from)
    attributes: dict[str, str] = {"rolegraph.thread_id": thread_id, "rolegraph.mode": mode}
    if customer:
        attributes["rolegraph.customer_hash"] = customer_hash(customer)
    if link is not None and resumed_from:
        attributes["rolegraph.resumed_from"] = resumed_from
    span = found.start_span("rolegraph turn", attributes=attributes, links=[link] if link else [])
    origin = resumed_from if link is not None else traceparent(span)
    try:
        yield TurnTrace([SpanRecorder(found, root=span)], {TURN_TRACE_KEY: origin or ""}, span)
    except BaseException as exc:
        # The type only: an error's text may quote customer data.
        span.set_status(Status(StatusCode.ERROR, type(exc).__name__))
        raise
    finally:
        # Not made the current span: the served graph's runs are async generators,
        # whose context may be entered and left in different tasks.
        span.end()
