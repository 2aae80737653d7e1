"""Tracing is configured by the standard `OTEL_*` variables and off without an endpoint."""

from __future__ import annotations

import os

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider

from nodes.tracing import install_tracing, tracer, tracing_configured, tracing_on, turn_trace

ENDPOINT = "http://127.0.0.1:4318"


def test_without_otel_variables_no_tracer_provider_is_installed() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    assert install_tracing(env) is False
    assert not tracing_on() and tracer() is None
    assert not isinstance(trace.get_tracer_provider(), TracerProvider)
    with turn_trace(thread_id="thr-x", mode="support", customer="U-1", resumed_from=None) as t:
        assert t.callbacks == [] and t.metadata == {} and t.span is None


@pytest.mark.parametrize(
    ("env", "on"),
    [
        ({}, False),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": ENDPOINT}, True),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": f"{ENDPOINT}/v1/traces"}, True),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": ENDPOINT, "OTEL_SDK_DISABLED": "true"}, False),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": ENDPOINT, "OTEL_SDK_DISABLED": "TRUE "}, False),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": ENDPOINT, "OTEL_TRACES_EXPORTER": "none"}, False),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": ENDPOINT, "OTEL_SDK_DISABLED": "false"}, True),
    ],
)
def test_an_endpoint_turns_tracing_on_unless_disabled(env: dict[str, str], on: bool) -> None:
    assert tracing_configured(env) is on
