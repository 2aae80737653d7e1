"""The real ChatOpenAI path against a local OpenAI-compatible stub server.

No real model is called: the stub answers POST /v1/chat/completions on
127.0.0.1 with canned chat completions, per requested model name.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from checkpoints.runtime import Database
from nodes.context import SupportContext
from nodes.intake.rules import understand
from nodes.models import ModelTiers
from nodes.models.ladder import model_understanding

TEXT = "I want my money back for the blender in #W1234567"
VALID = json.dumps({"intents": ["refund_status"], "slots": {"order_ids": ["#W1234567"]}})


@dataclass
class Stub:
    """What the stub answers per model name, and what it received."""

    port: int = 0
    answers: dict[str, tuple[int, str]] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def _handler(stub: Stub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            stub.requests.append({"path": self.path, "auth": self.headers["Authorization"], **body})
            status, content = stub.answers.get(body["model"], (404, ""))
            payload = _completion(body["model"], content) if status == 200 else {"error": {}}
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

    return Handler


def _completion(model: str, content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": 1700000000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 42, "completion_tokens": 9, "total_tokens": 51},
    }


@pytest.fixture
def stub() -> Iterator[Stub]:
    state = Stub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _env(stub: Stub, **models: str) -> dict[str, str]:
    env = {"OPENAI_API_KEY": "stub-key", "OPENAI_BASE_URL": stub.base_url}
    return env | {f"ROLEGRAPH_MODEL_{tier.upper()}": name for tier, name in models.items()}


async def _ledger(db: Database, thread_id: str) -> list[dict[str, Any]]:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT node, model, input_tokens, output_tokens FROM token_ledger"
            " WHERE thread_id = %s",
            (thread_id,),
        )
        return list(await cur.fetchall())


def _ctx(db: Database, tiers: ModelTiers) -> SupportContext:
    return SupportContext(runtime=None, registry=None, roles={}, pool=db.pool, models=tiers)  # type: ignore[arg-type]


async def test_chat_openai_reaches_the_endpoint_and_usage_is_recorded(
    db: Database, stub: Stub
) -> None:
    stub.answers["stub-small"] = (200, VALID)
    tiers = ModelTiers.from_env(_env(stub, small="stub-small"))
    thread = f"t-{uuid.uuid4().hex[:8]}"

    out = await model_understanding(_ctx(db, tiers), {"thread_id": thread}, understand(TEXT))

    assert out.tier == "small" and out.intents == ("refund_status",)
    [request] = stub.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] == "Bearer stub-key"
    assert request["model"] == "stub-small"
    assert [m["role"] for m in request["messages"]] == ["system", "user"]
    assert "#W1234567" in request["messages"][1]["content"]
    assert await _ledger(db, thread) == [
        {"node": "intake", "model": "stub-small", "input_tokens": 42, "output_tokens": 9}
    ]


async def test_http_error_on_large_falls_to_small_without_client_retries(
    db: Database, stub: Stub
) -> None:
    stub.answers["stub-large"] = (500, "")
    stub.answers["stub-small"] = (200, VALID)
    tiers = ModelTiers.from_env(_env(stub, small="stub-small", large="stub-large"))
    thread = f"t-{uuid.uuid4().hex[:8]}"

    out = await model_understanding(_ctx(db, tiers), {"thread_id": thread}, understand(TEXT))

    assert out.tier == "small"
    # max_retries=0: the failing tier is asked exactly once; the ladder moves on.
    assert [r["model"] for r in stub.requests] == ["stub-large", "stub-small"]
    assert [r["model"] for r in await _ledger(db, thread)] == ["stub-small"]


async def test_hostile_endpoint_cannot_widen_order_ids(db: Database, stub: Stub) -> None:
    hostile = json.dumps({"intents": ["cancel_order"], "slots": {"order_ids": ["#W0000001"]}})
    stub.answers["stub-small"] = (200, hostile)
    tiers = ModelTiers.from_env(_env(stub, small="stub-small"))
    rules = understand(TEXT)

    out = await model_understanding(_ctx(db, tiers), {}, rules)

    assert out == rules and out.slots.order_ids == ("#W1234567",)
