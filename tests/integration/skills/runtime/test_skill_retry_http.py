"""Retry against a real local HTTP server."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from runtime_helpers import request

from skills.registry import SkillRegistry
from skills.runtime import SkillRuntime


class _Scripted(BaseHTTPRequestHandler):
    """Answers with the server's scripted (status, headers) list, then 200."""

    def do_GET(self) -> None:
        server = self.server
        server.hits += 1  # type: ignore[attr-defined]
        status, headers = server.script.pop(0) if server.script else (200, {})  # type: ignore[attr-defined]
        body = json.dumps({"hit": server.hits}).encode()  # type: ignore[attr-defined]
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        return None


@pytest.fixture
def http_server() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    server.hits = 0  # type: ignore[attr-defined]
    server.script = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join()


def _url(server: ThreadingHTTPServer) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/status"


async def test_retry_after_is_honoured_with_a_real_wait(
    make_runtime: Callable[..., SkillRuntime], http_server: ThreadingHTTPServer
) -> None:
    http_server.script = [(429, {"Retry-After": "2"})]  # type: ignore[attr-defined]
    runtime = make_runtime(sleep=asyncio.sleep)
    started = time.monotonic()
    result = await runtime.call(request("http_fetch_v1", {"url": _url(http_server)}))
    elapsed = time.monotonic() - started
    assert result.ok and result.payload == {"hit": 2} and result.retries == 1
    assert elapsed >= 2.0


async def test_server_errors_are_retried_and_client_errors_are_not(
    runtime: SkillRuntime, registry: SkillRegistry, http_server: ThreadingHTTPServer
) -> None:
    http_server.script = [(503, {}), (503, {})]  # type: ignore[attr-defined]
    retried = await runtime.call(request("http_fetch_v1", {"url": _url(http_server)}))
    assert retried.ok and retried.retries == 2 and http_server.hits == 3  # type: ignore[attr-defined]

    http_server.script = [(400, {})]  # type: ignore[attr-defined]
    refused = await runtime.call(request("http_fetch_v1", {"url": _url(http_server)}))
    assert refused.error_code == "http_error" and refused.retries == 0
    assert http_server.hits == 4  # type: ignore[attr-defined]
