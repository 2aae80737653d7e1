"""A local OpenAI-compatible chat-completions server on 127.0.0.1, for the real
`ChatOpenAI` path: it answers POST /v1/chat/completions with canned completions,
per requested model name, and keeps every request body it received.

An answer's content is the assistant's text, or an assistant message as a dict
(e.g. `tool_calls(...)`), sent with `finish_reason` "tool_calls" when it calls tools.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Content = str | dict[str, Any]
"""The assistant's text, or its whole message."""


@dataclass
class Stub:
    """What the stub answers per model name, and what it received.

    `queued` answers (status, content, headers) are used first, in order;
    then `answers`. A model in `hanging` never answers until the test ends.
    """

    port: int = 0
    answers: dict[str, tuple[int, Content]] = field(default_factory=dict)
    queued: dict[str, list[tuple[int, Content, dict[str, str]]]] = field(default_factory=dict)
    hanging: set[str] = field(default_factory=set)
    released: threading.Event = field(default_factory=threading.Event)
    requests: list[dict[str, Any]] = field(default_factory=list)

    def answer(self, model: str) -> tuple[int, Content, dict[str, str]]:
        if self.queued.get(model):
            return self.queued[model].pop(0)
        status, content = self.answers.get(model, (404, ""))
        return status, content, {}

    def received(self, model: str) -> list[dict[str, Any]]:
        """The request bodies sent for `model`, in order."""
        return [r for r in self.requests if r["model"] == model]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def tool_calls(*calls: tuple[str, dict[str, Any]], first: int = 1) -> dict[str, Any]:
    """An assistant message calling `calls` (name, arguments), with ids `call_<n>`."""
    return {
        "content": None,
        "tool_calls": [
            {
                "id": f"call_{n}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for n, (name, args) in enumerate(calls, start=first)
        ],
    }


def _handler(stub: Stub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            stub.requests.append({"path": self.path, "auth": self.headers["Authorization"], **body})
            if body["model"] in stub.hanging:
                stub.released.wait(timeout=60)
                return
            status, content, headers = stub.answer(body["model"])
            payload = completion(body["model"], content) if status == 200 else {"error": {}}
            data = json.dumps(payload).encode()
            self.send_response(status)
            for name, value in {"Content-Type": "application/json", **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

    return Handler


def completion(model: str, content: Content) -> dict[str, Any]:
    """One chat completion answering with `content`."""
    message = {"role": "assistant", **content} if isinstance(content, dict) else None
    message = message or {"role": "assistant", "content": content}
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": 1700000000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
            }
        ],
        "usage": {"prompt_tokens": 42, "completion_tokens": 9, "total_tokens": 51},
    }


@pytest.fixture
def stub() -> Iterator[Stub]:
    """A running stub on a free port, shut down after the test."""
    state = Stub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.released.set()
        server.shutdown()
        server.server_close()
        thread.join()


def stub_env(stub: Stub, **models: str) -> dict[str, str]:
    """The model settings that point the tiers (`small=`, `large=` model names) at `stub`."""
    env = {"OPENAI_API_KEY": "stub-key", "OPENAI_BASE_URL": stub.base_url}
    return env | {f"ROLEGRAPH_MODEL_{tier.upper()}": name for tier, name in models.items()}
