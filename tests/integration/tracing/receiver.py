"""A local OTLP/HTTP trace receiver: what an exporter sent, decoded into `Span`s."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue


@dataclass(frozen=True)
class Span:
    """One received span, ids in hex."""

    name: str
    trace_id: str
    span_id: str
    parent_id: str
    attributes: dict[str, Any]
    links: tuple[tuple[str, str], ...]
    """(trace id, span id) of each linked span."""
    status_code: int


class Receiver:
    """Collects every span exported to it; `url` is its OTLP endpoint."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.spans: list[Span] = []
        self.raw: list[bytes] = []
        self._lock = threading.Lock()

    def add(self, body: bytes) -> None:
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        spans = [
            _span(s) for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans
        ]
        with self._lock:
            self.raw.append(body)
            self.spans.extend(spans)

    def clear(self) -> None:
        with self._lock:
            self.spans.clear()
            self.raw.clear()


@contextmanager
def otlp_receiver() -> Iterator[Receiver]:
    """A receiver on 127.0.0.1 (any free port), served from a thread."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    receiver = Receiver(server.server_address[1])
    server.receiver = receiver  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path != "/v1/traces":
            self.send_error(404)
            return
        self.server.receiver.add(body)  # type: ignore[attr-defined]
        reply = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _span(raw: Any) -> Span:
    return Span(
        name=raw.name,
        trace_id=raw.trace_id.hex(),
        span_id=raw.span_id.hex(),
        parent_id=raw.parent_span_id.hex(),
        attributes={a.key: _value(a.value) for a in raw.attributes},
        links=tuple((link.trace_id.hex(), link.span_id.hex()) for link in raw.links),
        status_code=raw.status.code,
    )


def _value(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    return getattr(value, kind) if kind else None
