"""A local stand-in for the LangSmith API: the runs a `LANGSMITH_TRACING=true`
process posts (multipart ingestion), decoded to their JSON bodies."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class LangSmithReceiver:
    """Collects posted runs by id; `url` is the endpoint to set as LANGSMITH_ENDPOINT."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.runs: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def add(self, content_type: str, body: bytes) -> None:
        message = BytesParser(policy=HTTP).parsebytes(
            b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body
        )
        for part in message.iter_parts():  # type: ignore[attr-defined]
            name = part.get_param("name", header="content-disposition") or ""
            kind, _, run_id = str(name).partition(".")
            if kind in ("post", "patch") and "." not in run_id:
                run = json.loads(part.get_payload(decode=True))
                with self._lock:
                    self.runs.setdefault(run_id, {}).update(run)


@contextmanager
def langsmith_receiver() -> Iterator[LangSmithReceiver]:
    """A receiver on 127.0.0.1 (any free port), served from a thread."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    receiver = LangSmithReceiver(server.server_address[1])
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
    def _answer(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        content_type = self.headers.get("Content-Type") or ""
        if self.path.startswith("/runs/multipart") and content_type.startswith("multipart/"):
            self.server.receiver.add(content_type, body)  # type: ignore[attr-defined]
        reply = b"{}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    do_GET = do_POST = do_PATCH = _answer

    def log_message(self, format: str, *args: Any) -> None:
        pass
