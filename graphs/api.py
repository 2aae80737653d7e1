"""The Python API: start a request, resume a thread, report where it stands.

The CLI, the demo and the notebook all call these; none of them talks to
the graph another way.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from checkpoints.errors import InvalidArgument, NotFound
from graphs.support import build_support_graph
from nodes.context import SupportContext
from nodes.intake.ownership import user_exists

OnStep = Callable[[str, dict[str, Any]], None]
MAX_TEXT = 4000


@dataclass(frozen=True)
class RunReport:
    """Where a thread stands: the `--json` object of the CLI."""

    thread_id: str
    status: str
    intents: list[str]
    plan: list[dict[str, Any]]
    interrupts: list[dict[str, Any]]
    answer: str
    audit_id: str | None
    trace: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("trace")
        return data


def compile_support(
    ctx: SupportContext, checkpointer: Any = None
) -> CompiledStateGraph[Any, Any, Any, Any]:
    return build_support_graph(ctx.roles).compile(checkpointer=checkpointer)


async def run_request(
    graph: CompiledStateGraph[Any, Any, Any, Any],
    ctx: SupportContext,
    *,
    text: str,
    user_id: str,
    thread_id: str | None = None,
    on_step: OnStep | None = None,
) -> RunReport:
    """Run one customer request on a new thread until it ends or interrupts."""
    text = (text or "").strip()
    if not text:
        raise InvalidArgument("the request text is empty; say what the customer wants")
    if len(text) > MAX_TEXT:
        raise InvalidArgument(f"the request is {len(text)} characters; keep it under {MAX_TEXT}")
    if not await user_exists(ctx.pool, user_id):
        raise NotFound(
            f"unknown user {user_id!r}; pass the id of an existing customer with --user-id"
        )
    thread_id = thread_id or "thr-" + uuid.uuid4().hex[:12]
    config = _config(thread_id)
    if (await graph.aget_state(config)).values:
        raise InvalidArgument(
            f"thread {thread_id!r} already exists; resume it or use a new --thread-id"
        )
    await _stream(graph, ctx, {"text": text, "user_id": user_id}, config, on_step)
    return await report(graph, thread_id)


async def resume_thread(
    graph: CompiledStateGraph[Any, Any, Any, Any],
    ctx: SupportContext,
    thread_id: str,
    *,
    decision: str,
    request_id: str | None = None,
    args: dict[str, Any] | None = None,
    message: str | None = None,
    on_step: OnStep | None = None,
) -> RunReport:
    """Answer a thread's pending requests by id and run it on to its next stop."""
    current = await report(graph, thread_id)
    if not current.interrupts:
        raise InvalidArgument(
            f"thread {thread_id!r} is {current.status}; there is nothing to resume"
        )
    ids = [i["id"] for i in current.interrupts]
    if request_id is not None and request_id not in ids:
        raise InvalidArgument(
            f"thread {thread_id!r} has no pending request {request_id!r}; pending: {', '.join(ids)}"
        )
    answer = {"decision": decision, "args": args, "message": message}
    resume = {rid: answer for rid in ([request_id] if request_id else ids)}
    await _stream(graph, ctx, Command(resume=resume), _config(thread_id), on_step)
    return await report(graph, thread_id)


async def report(graph: CompiledStateGraph[Any, Any, Any, Any], thread_id: str) -> RunReport:
    snapshot = await graph.aget_state(_config(thread_id))
    values = snapshot.values
    if not values:
        raise NotFound(f"no thread {thread_id!r}; list threads with `rolegraph threads list`")
    interrupts = [_public(r) for i in snapshot.interrupts for r in (i.value or [])]
    status = (
        "interrupted"
        if interrupts
        else values.get("status") or ("running" if snapshot.next else "failed")
    )
    return RunReport(
        thread_id=thread_id,
        status=status,
        intents=list((values.get("understanding") or {}).get("intents", [])),
        plan=[_task(t) for t in (values.get("plan") or {}).get("tasks", [])],
        interrupts=interrupts,
        answer=values.get("answer") or "",
        audit_id=values.get("audit_id"),
        trace=list(values.get("trace") or []),
    )


async def _stream(
    graph: Any, ctx: SupportContext, payload: Any, config: RunnableConfig, on_step: OnStep | None
) -> None:
    async for chunk in graph.astream(payload, config, context=ctx, stream_mode="updates"):
        for node, update in chunk.items():
            if on_step and isinstance(update, dict):
                on_step(node, update)


def _config(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id}}


def _task(task: dict[str, Any]) -> dict[str, Any]:
    return {k: task.get(k) for k in ("id", "role", "skill", "args", "depends_on")}


def _public(request: dict[str, Any]) -> dict[str, Any]:
    return {k: request.get(k) for k in ("id", "kind", "skill", "risk", "args", "reason")}
