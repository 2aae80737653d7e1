"""The process's tracer provider, built from the standard `OTEL_*` variables.

Tracing is on when an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
or `OTEL_EXPORTER_OTLP_ENDPOINT`) and not switched off (`OTEL_SDK_DISABLED=true`,
`OTEL_TRACES_EXPORTER=none`). The exporter (OTLP over HTTP) reads its own
variables (headers, timeout, compression). Off, no provider is installed:
OTel's API stays a no-op and rolegraph attaches no callback handler.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from opentelemetry.trace import Tracer

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

SCOPE = "rolegraph"
"""The instrumentation scope of rolegraph's spans."""
_installed: list[TracerProvider] = []
"""The provider `install_tracing` made; process-wide, as OTel's own global is."""


def tracing_configured(env: Mapping[str, str]) -> bool:
    """Whether `env` asks for traces to be exported."""
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    if env.get("OTEL_TRACES_EXPORTER", "").strip().lower() == "none":
        return False
    return bool(
        env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or env.get("OTEL_EXPORTER_OTLP_ENDPOINT")
    )


def install_tracing(env: Mapping[str, str]) -> bool:
    """Install the OTLP/HTTP tracer provider when `env` configures one; True if on.

    Call it once at an entry point (the CLI, the served graph's factory).
    """
    if _installed:
        return True
    if not tracing_configured(env):
        return False
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    resource = Resource.create({"service.name": env.get("OTEL_SERVICE_NAME") or SCOPE})
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    _installed.append(provider)
    return True


def tracer() -> Tracer | None:
    """rolegraph's tracer when tracing is on, else None."""
    return _installed[0].get_tracer(SCOPE) if _installed else None


def tracing_on() -> bool:
    """Whether `install_tracing` installed a provider in this process."""
    return bool(_installed)


def shutdown_tracing() -> None:
    """Export every finished span and stop (a short-lived CLI process calls it last)."""
    while _installed:
        _installed.pop().shutdown()
