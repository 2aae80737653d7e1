"""What the inbox pages show, read from the approvals table and each thread's state.

A pending request is shown with what an operator needs to decide it: the
customer, its age, the skill, risk, arguments, reason and evidence, the
conversation so far (the thread's `messages` and its compressed `summary`),
and for an approval the skill's parameters as edit fields (`nodes.hitl`'s
`args_schema`: the record the call acts on is fixed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.graph.state import CompiledStateGraph

from checkpoints.inbox import InboxItem
from graphs.inbox import answerable_requests
from nodes.context import SupportContext
from nodes.contracts import ApprovalRequest
from nodes.hitl import args_schema, requests_in

Graph = CompiledStateGraph[Any, Any, Any, Any]
_SPEAKERS = {"human": "customer", "ai": "assistant"}


@dataclass(frozen=True)
class InboxBackend:
    """The compiled support graph and its context: what the inbox reads and resumes."""

    graph: Graph
    ctx: SupportContext


@dataclass(frozen=True)
class Line:
    """One message of the conversation so far."""

    speaker: str
    text: str


@dataclass(frozen=True)
class EditField:
    """One argument of the skill, as an edit form input."""

    name: str
    type: str
    description: str
    value: str
    """The current value: a string as it is, anything else as JSON."""
    fixed: bool
    """The record the call acts on: shown, never editable."""
    required: bool


@dataclass(frozen=True)
class RequestView:
    """One pending request and everything shown beside it."""

    item: InboxItem
    request: ApprovalRequest
    age: str
    conversation: tuple[Line, ...]
    fields: tuple[EditField, ...]

    @property
    def args_json(self) -> str:
        return json.dumps(self.item.args, ensure_ascii=False, indent=1)


async def pending_views(backend: InboxBackend) -> list[RequestView]:
    """Every request the graph still waits on, oldest first, with its thread's details."""
    items = await answerable_requests(backend.graph, backend.ctx.pool)
    states: dict[str, tuple[list[ApprovalRequest], tuple[Line, ...]]] = {}
    for item in items:
        if item.thread_id not in states:
            states[item.thread_id] = await _thread_state(backend.graph, item)
    now = datetime.now(UTC)
    views = []
    for item in items:
        requests, conversation = states[item.thread_id]
        request = next((r for r in requests if r.id == item.request_id), None)
        if request is not None:
            fields = edit_fields(backend.ctx, request)
            views.append(
                RequestView(item, request, age(now - item.created_at), conversation, fields)
            )
    return views


async def pending_view(backend: InboxBackend, request_id: str) -> RequestView | None:
    """The one pending request `request_id`, or None once it is decided or gone."""
    return next((v for v in await pending_views(backend) if v.item.request_id == request_id), None)


async def conversation_of(graph: Graph, thread_id: str) -> tuple[Line, ...]:
    """The thread's conversation so far: its summary of older turns, then its messages."""
    snapshot = await graph.aget_state({"configurable": {"thread_id": thread_id}})
    return _lines(snapshot.values)


async def _thread_state(
    graph: Graph, item: InboxItem
) -> tuple[list[ApprovalRequest], tuple[Line, ...]]:
    snapshot = await graph.aget_state({"configurable": {"thread_id": item.thread_id}})
    audit_id = str(snapshot.values.get("audit_id") or "")
    requests = [
        ApprovalRequest.model_validate({"audit_id": audit_id, **raw})
        for interrupt in snapshot.interrupts
        for raw in requests_in(interrupt.value)
    ]
    return requests, _lines(snapshot.values)


def _lines(values: dict[str, Any]) -> tuple[Line, ...]:
    lines = [Line("summary", str(values["summary"]))] if values.get("summary") else []
    for message in values.get("messages") or []:
        if isinstance(message, BaseMessage) and message.type in _SPEAKERS and message.text:
            lines.append(Line(_SPEAKERS[message.type], message.text))
    return tuple(lines)


def edit_fields(ctx: SupportContext, request: ApprovalRequest) -> tuple[EditField, ...]:
    """The skill's parameters as form inputs, filled with the request's arguments."""
    skill = ctx.registry.lookup(request.skill) if request.skill else None
    if request.kind != "approval" or skill is None:
        return ()
    schema = args_schema(skill.metadata.parameters, request)
    required = set(schema["required"])
    return tuple(
        EditField(
            name=name,
            type=str(prop["type"]),
            description=str(prop.get("description") or ""),
            value=_shown(request.args.get(name), str(prop["type"])),
            fixed="const" in prop,
            required=name in required,
        )
        for name, prop in schema["properties"].items()
    )


def _shown(value: object, declared: str) -> str:
    if value is None:
        return ""
    if declared == "string" and isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def age(delta: timedelta) -> str:
    """How long a request has waited, as `42s`, `5m`, `3h` or `2d`."""
    seconds = max(int(delta.total_seconds()), 0)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"
