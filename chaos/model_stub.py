"""A local OpenAI-compatible endpoint on 127.0.0.1 whose model names are faults.

`POST /v1/chat/completions` answers by the requested model name (500, 429
with Retry-After, a hang, invalid JSON, hostile readings and plans), telling
intake requests from planner requests by their system prompt.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HANG_S = 20.0
_ORDER = re.compile(r"#W\d{7}")


def _reading(order: str, hostile: bool) -> dict[str, Any]:
    intents = ["order_status", "cancel_order"] if hostile else ["order_status"]
    return {"intents": intents, "slots": {"order_ids": [order], "reason": "no longer needed"}}


def _task(tid: str, role: str, skill: str, args: dict[str, Any], deps: list[str]) -> dict[str, Any]:
    return {"id": tid, "role": role, "skill": skill, "args": args, "depends_on": deps}


def _plan(mode: str, order: str) -> dict[str, Any]:
    read = _task("t1", "order_query", "get_order_details_v1", {"order_id": order}, [])
    if mode == "plan_adds_cancel":
        cancel = {"order_id": order, "reason": "no longer needed"}
        return {
            "tasks": [
                read,
                _task("t2", "billing_specialist", "cancel_pending_order_v1", cancel, ["t1"]),
            ]
        }
    if mode == "plan_drops_args":
        return {"tasks": [_task("t1", "logistics_analyst", "track_shipment_v1", {}, []),
                          _task("t2", "customer_support_rep", "search_knowledge_v1", {}, [])]}  # fmt: skip
    return {"tasks": [read]}  # plan_drops_write: the cancel is gone


def answer(mode: str, planner: bool, text: str) -> tuple[int, dict[str, str], str]:
    """(status, headers, message content) the stub sends for `mode`."""
    order = (_ORDER.findall(text) or ["#W0000000"])[-1]
    if mode == "http500":
        return 500, {}, ""
    if mode == "http429":
        return 429, {"Retry-After": "1"}, ""
    if mode == "hang":
        time.sleep(HANG_S)
        return 500, {}, ""
    if mode == "invalid_json":
        return 200, {}, '{"intents": ["order_status", '
    if mode == "reading_adds_cancel":
        return (200, {}, "not json") if planner else (200, {}, json.dumps(_reading(order, True)))
    if mode.startswith("plan_"):
        return (200, {}, json.dumps(_plan(mode, order))) if planner else (200, {}, "not json")
    return 404, {}, ""


def _handler() -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            messages = body.get("messages") or []
            system = next((m["content"] for m in messages if m["role"] == "system"), "")
            user = " ".join(m["content"] for m in messages if m["role"] == "user")
            status, headers, content = answer(body["model"], "You plan the steps" in system, user)
            payload = (
                _completion(body["model"], content)
                if status == 200
                else {"error": {"message": "stub"}}
            )
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                for k, v in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the client gave up (a hang it timed out on)

        def log_message(self, *args: Any) -> None:
            pass

    return Handler


def _completion(model: str, content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-chaos", "object": "chat.completion", "created": 1700000000, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }  # fmt: skip


@contextmanager
def model_stub() -> Iterator[str]:
    """Serve the stub; yield its base URL (`http://127.0.0.1:PORT/v1`)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler())
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
