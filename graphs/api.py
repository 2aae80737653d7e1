"""The Python API: start a request, resume a thread, report where it stands.

The CLI, the demo and the notebook all call these; none of them talks to
the graph another way.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command
from pydantic import ValidationError

from checkpoints.errors import InvalidArgument, NotFound
from graphs.support import build_support_graph
from nodes.context import SupportContext
from nodes.contracts import HumanDecision
from nodes.inputs import (
    clean_args,
    clean_id,
    clean_message,
    clean_text,
    clean_user_id,
    unknown_user,
)
from nodes.intake.ownership import user_exists

OnStep = Callable[[str, dict[str, Any]], None]
RECURSION_LIMIT = 200


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
    text, user_id = clean_text(text), clean_user_id(user_id)
    thread_id = clean_id(thread_id, name="the thread id") if thread_id is not None else None
    if not await user_exists(ctx.pool, user_id):
        raise await unknown_user(ctx.pool, user_id)
    thread_id = thread_id or "thr-" + uuid.uuid4().hex[:12]
    async with _thread_lock(ctx.pool, thread_id):
        if (await graph.aget_state(_config(thread_id))).values:
            raise InvalidArgument(
                f"thread {thread_id!r} already exists; resume it or use a new --thread-id"
            )
        return await _advance(graph, ctx, {"text": text, "user_id": user_id}, thread_id, on_step)


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
    thread_id = clean_id(thread_id, name="the thread id")
    request_id = clean_id(request_id, name="the request id") if request_id is not None else None
    args = clean_args(args) if args is not None else None
    answer = _decision(decision, args, clean_message(decision, message))
    async with _thread_lock(ctx.pool, thread_id):
        current = await report(graph, thread_id)
        targets = _targets(current, request_id, answer)
        resume = {rid: answer.model_dump(mode="json") for rid in targets}
        return await _advance(graph, ctx, Command(resume=resume), thread_id, on_step)


def _decision(decision: str, args: dict[str, Any] | None, message: str | None) -> HumanDecision:
    try:
        return HumanDecision(decision=decision, args=args, message=message)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise InvalidArgument(
            f"cannot use decision {decision!r} with these arguments; use approve, reject, "
            "edit (with a JSON object of args) or reply (to an escalation)"
        ) from exc


def _targets(current: RunReport, request_id: str | None, answer: HumanDecision) -> list[str]:
    """The pending requests this decision answers; refuse ambiguous or mismatched ones."""
    thread_id = current.thread_id
    if not current.interrupts:
        raise InvalidArgument(
            f"thread {thread_id!r} is {current.status}; there is nothing to resume"
        )
    kinds = {i["id"]: i["kind"] for i in current.interrupts}
    if request_id is not None and request_id not in kinds:
        raise InvalidArgument(
            f"thread {thread_id!r} has no pending request {request_id!r}; pending: {', '.join(kinds)}"
        )
    targets = [request_id] if request_id else list(kinds)
    if answer.decision == "edit" and len(targets) != 1:
        raise InvalidArgument(
            f"thread {thread_id!r} has {len(targets)} pending requests; name the one to edit with --request-id"
        )
    for rid in targets:
        if (kinds[rid] == "escalation") != (answer.decision == "reply"):
            expected = "reply" if kinds[rid] == "escalation" else "approve, reject or edit"
            raise InvalidArgument(
                f"request {rid} is an {kinds[rid]}; answer it with --decision {expected}"
            )
    return targets


@asynccontextmanager
async def _thread_lock(pool: Any, thread_id: str) -> AsyncIterator[None]:
    """One writer per thread across processes: two resumes never race."""
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT pg_try_advisory_lock(hashtext(%s)) AS ok", (thread_id,))
        row = await cur.fetchone()
        if not row or not row["ok"]:
            raise InvalidArgument(
                f"thread {thread_id!r} is being run by another process; try again when it stops"
            )
        try:
            yield
        finally:
            await conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (thread_id,))


async def report(graph: CompiledStateGraph[Any, Any, Any, Any], thread_id: str) -> RunReport:
    snapshot = await graph.aget_state(_config(thread_id))
    values = snapshot.values
    if not values:
        raise NotFound(f"no thread {thread_id!r}; list threads with `rolegraph threads list`")
    interrupts = [_public(r) for i in snapshot.interrupts for r in (i.value or [])]
    crashed = any(getattr(t, "error", None) for t in snapshot.tasks)
    if interrupts and not crashed:
        status = "interrupted"
    elif crashed or snapshot.next:
        status = "failed"  # a node raised, or the run stopped before its end
    else:
        status = values.get("status") or "failed"
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


async def _advance(
    graph: Any, ctx: SupportContext, payload: Any, thread_id: str, on_step: OnStep | None
) -> RunReport:
    """Run the thread on from `payload` to its next stop and report where it stands."""
    config = _config(thread_id)
    async for chunk in graph.astream(payload, config, context=ctx, stream_mode="updates"):
        for node, update in chunk.items():
            if on_step and isinstance(update, dict):
                on_step(node, update)
    return await report(graph, thread_id)


def _config(thread_id: str) -> RunnableConfig:
    # Every loop in the graph is bounded (refine rounds, review revisions); the
    # limit is a backstop far above any legitimate run, well below LangGraph's 10k.
    return {"configurable": {"thread_id": thread_id}, "recursion_limit": RECURSION_LIMIT}


def _task(task: dict[str, Any]) -> dict[str, Any]:
    return {k: task.get(k) for k in ("id", "role", "skill", "args", "depends_on")}


def _public(request: dict[str, Any]) -> dict[str, Any]:
    return {k: request.get(k) for k in ("id", "kind", "skill", "risk", "args", "reason")}
