"""OpenTelemetry traces of turns: the provider from `OTEL_*`, the root span of a
turn, and the LangChain callback handler that turns graph runs into spans.

Off (no provider, no handler, nothing to pay) unless an OTLP endpoint is configured.
"""

from nodes.tracing.naming import customer_hash
from nodes.tracing.provider import (
    install_tracing,
    shutdown_tracing,
    tracer,
    tracing_configured,
    tracing_on,
)
from nodes.tracing.spans import SpanRecorder
from nodes.tracing.turn import TURN_TRACE_KEY, TurnTrace, turn_trace

__all__ = [
    "TURN_TRACE_KEY",
    "SpanRecorder",
    "TurnTrace",
    "customer_hash",
    "install_tracing",
    "shutdown_tracing",
    "tracer",
    "tracing_configured",
    "tracing_on",
    "turn_trace",
]
