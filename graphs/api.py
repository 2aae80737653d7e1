"""The Python API: start a request, resume a thread, report where it stands.

The CLI, the demo and the notebook all call these; none of them talks to
the graph another way.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.serde.types import RESUME
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore
from langgraph.types import Command, Overwrite
from pydantic import ValidationError

from checkpoints.errors import InvalidArgument, NotFound
from checkpoints.threads import is_running, thread_lock
from graphs.modes import (
    DEFAULT_MODE,
    MODE_KEY,
    compile_mode,
    mode_of,
    sibling,
    thread_mode,
)
from nodes.checked_customer import customer_checked
from nodes.context import SupportContext
from nodes.contracts import ApprovalRequest, HumanDecision
from nodes.hitl import requests_in
from nodes.identity import AUTH_USER_KEY, Identity
from nodes.inputs import (
    clean_args,
    clean_id,
    clean_message,
    clean_text,
    clean_user_id,
    unknown_user,
)
from nodes.language import say, turn_lang
from nodes.resume_value import normalised_edit
from nodes.tracing import TURN_TRACE_KEY, tracing_on, turn_trace

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
    turn: int = 0
    """Which turn of the thread's conversation this is (1 for the first)."""
    user_id: str | None = None
    question: dict[str, Any] | None = None
    """What the turn asks the customer when its status is `needs_input`: `kind`
    (clarify | confirm), `text`, and the `options` a clarification offers."""
    trace: list[str] = field(default_factory=list)
    mode: str = DEFAULT_MODE
    """The execution mode running the thread (`graphs.modes`)."""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("trace")
        data.pop("user_id")
        data.pop("mode")
        return data


def new_thread_id() -> str:
    """A fresh thread id (callers that must show it before the run starts pick it first)."""
    return "thr-" + uuid.uuid4().hex[:12]


def compile_support(
    ctx: SupportContext,
    checkpointer: Any = None,
    store: BaseStore | None = None,
    *,
    mode: str = DEFAULT_MODE,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The graph of execution `mode` (`graphs.modes.MODES`; the support graph by default);
    with `store` (the database's), customers' long-term memory is on. New threads run in
    the graph's mode; the functions here run a thread that exists in the mode that started
    it, whichever mode's graph they are given (`RunReport.mode` says which)."""
    return compile_mode(mode, ctx.roles, checkpointer, store)


async def run_request(
    graph: CompiledStateGraph[Any, Any, Any, Any],
    ctx: SupportContext,
    *,
    text: str,
    user_id: str,
    thread_id: str | None = None,
    actor: Identity | None = None,
    on_step: OnStep | None = None,
) -> RunReport:
    """Run one customer turn until it ends or interrupts: on a new thread, or
    as the next turn of `thread_id`'s conversation.

    `actor` is who asks: the customer `user_id` itself when None (the caller
    authenticated them), or an operator acting for that customer. A customer
    identity may only act for itself, and a thread only ever serves the
    customer of its first turn. A customer's turn on a thread waiting for an
    operator's decision withdraws what waits; a thread that stopped before its
    end takes no new turn until it is continued.
    """
    text, user_id = clean_text(text), clean_user_id(user_id)
    thread_id = clean_id(thread_id, name="the thread id") if thread_id is not None else None
    actor = actor or Identity("customer", user_id)
    if actor.user_id not in (None, user_id):
        raise InvalidArgument(f"{actor.label} cannot act for another customer ({user_id!r})")
    if not await ctx.domain.records.customer_exists(ctx.pool, user_id):
        raise await unknown_user(ctx.domain, ctx.pool, user_id)
    # A thread id minted here has no history to check: one checkpoint read fewer.
    continuing = thread_id is not None
    thread_id = thread_id or new_thread_id()
    # Intake need not read the customer's row again.
    with customer_checked(user_id):
        async with thread_lock(ctx.pool, thread_id):
            if continuing and (current := await _report_if_any(graph, thread_id)) is not None:
                _check_new_turn(current, user_id, actor)
            payload = {"text": text, "user_id": user_id}
            return await _advance(
                graph, ctx, payload, thread_id, actor, on_step, new=not continuing
            )


async def continue_thread(
    graph: CompiledStateGraph[Any, Any, Any, Any],
    ctx: SupportContext,
    thread_id: str,
    *,
    actor: Identity,
    on_step: OnStep | None = None,
) -> RunReport:
    """Continue a thread whose last run died, from its last checkpoint.

    Nothing is repeated: nodes that finished are not re-run, and a node that
    re-runs replays its side effects from the idempotency ledger. A decision
    given before the crash is still queued and is not asked again.
    """
    thread_id = clean_id(thread_id, name="the thread id")
    async with thread_lock(ctx.pool, thread_id):
        current = await report(graph, thread_id)
        _check_access(actor, current, thread_id)
        if current.status != "crashed":
            raise InvalidArgument(_nothing_to_continue(current))
        return await _advance(graph, ctx, None, thread_id, actor, on_step)


async def resume_thread(
    graph: CompiledStateGraph[Any, Any, Any, Any],
    ctx: SupportContext,
    thread_id: str,
    *,
    decision: str,
    request_id: str | None = None,
    args: dict[str, Any] | None = None,
    message: str | None = None,
    actor: Identity,
    on_step: OnStep | None = None,
) -> RunReport:
    """Answer a thread's pending requests by id, as operator `actor`, and run it
    on to its next stop. Only operators decide; the decision records `actor`."""
    if not actor.is_operator:
        raise InvalidArgument(
            f"{actor.label} cannot answer approvals or escalations; only an operator can"
        )
    thread_id = clean_id(thread_id, name="the thread id")
    request_id = clean_id(request_id, name="the request id") if request_id is not None else None
    args = clean_args(args) if args is not None else None
    answer = _decision(decision, args, clean_message(decision, message))
    async with thread_lock(ctx.pool, thread_id):
        current = await report(graph, thread_id)
        if actor.subject == current.user_id:
            raise InvalidArgument(f"{actor.label} cannot approve their own request")
        if current.status == "crashed":
            raise InvalidArgument(
                f"thread {thread_id!r} stopped before its end; continue it first with"
                f" `rolegraph resume {thread_id}` (no --decision)"
            )
        targets = _targets(current, request_id, answer)
        resume = {rid: _checked(ctx, current, rid, answer) for rid in targets}
        return await _advance(graph, ctx, Command(resume=resume), thread_id, actor, on_step)


def _decision(decision: str, args: dict[str, Any] | None, message: str | None) -> HumanDecision:
    if decision not in ("approve", "reject", "edit", "reply"):
        raise InvalidArgument(
            f"unknown decision {str(decision)[:40]!r}; use approve, reject, edit (with --args)"
            " or reply (with --message)"
        )
    try:
        return HumanDecision(decision=decision, args=args, message=message)  # type: ignore[arg-type]
    except ValidationError as exc:
        reason = exc.errors()[0]["msg"].removeprefix("Value error, ")
        raise InvalidArgument(
            f"cannot {decision} like this: {reason} (approve|reject, edit --args JSON,"
            " or reply --message TEXT for an escalation)"
        ) from exc


def _checked(
    ctx: SupportContext, current: RunReport, request_id: str, answer: HumanDecision
) -> dict[str, Any]:
    """The resume value for one request; edited arguments must satisfy the skill."""
    if answer.decision != "edit":
        return answer.model_dump(mode="json")
    raw = next(i for i in current.interrupts if i["id"] == request_id)
    request = ApprovalRequest.model_validate({**raw, "audit_id": current.audit_id or ""})
    edited = normalised_edit(ctx.registry, request, answer.args or {})
    if edited is None:
        raise InvalidArgument(
            f"the edited arguments are not valid for {request.skill}: pass every argument it"
            f" needs and keep the record it acts on, e.g. the request's own: {raw['args']}"
        )
    return answer.model_copy(update={"args": edited}).model_dump(mode="json")


def _check_new_turn(current: RunReport, user_id: str, actor: Identity) -> None:
    """Refuse a turn on another customer's thread, or on one that stopped mid-turn."""
    thread_id = current.thread_id
    if current.user_id not in (None, "", user_id):
        if not actor.is_operator:
            raise NotFound(f"no thread {thread_id!r}; list threads with `rolegraph threads list`")
        raise InvalidArgument(
            f"thread {thread_id!r} is another customer's conversation; start a new thread"
            f" for {user_id!r} (omit --thread-id)"
        )
    # A new turn on a thread waiting for an operator is the customer's change of mind:
    # the turn withdraws what waits (nodes.conversation.withdraw).
    if current.status == "crashed":
        raise InvalidArgument(
            f"thread {thread_id!r} stopped in the middle of its last turn; continue it with"
            f" `rolegraph resume {thread_id}` before adding a turn"
        )


def _check_access(actor: Identity, current: RunReport, thread_id: str) -> None:
    if actor.user_id is not None and current.user_id != actor.user_id:
        raise NotFound(f"no thread {thread_id!r}; list threads with `rolegraph threads list`")


def _nothing_to_continue(current: RunReport) -> str:
    if current.status == "interrupted":
        return (
            f"thread {current.thread_id!r} is waiting for a decision; answer it with"
            " --decision approve|reject|edit (or reply --message for an escalation)"
        )
    return f"thread {current.thread_id!r} is {current.status}; there is nothing to continue"


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
    if len({kinds[rid] for rid in targets}) > 1:
        raise InvalidArgument(
            f"thread {thread_id!r} has approvals and escalations pending; answer each with"
            " --request-id"
        )
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


async def report(graph: CompiledStateGraph[Any, Any, Any, Any], thread_id: str) -> RunReport:
    """Where a thread stands. Call it holding the thread's lock (or accept that a
    thread another process is running reads as `crashed`). Every mode's graph reads
    every thread (their states are one schema); `mode` is the thread's own."""
    config = _config(thread_id)
    snapshot = await graph.aget_state(config)
    values = snapshot.values
    if not values:
        raise NotFound(f"no thread {thread_id!r}; list threads with `rolegraph threads list`")
    interrupts = [_public(r) for i in snapshot.interrupts for r in requests_in(i.value)]
    if interrupts and not await _resume_queued(graph, config):
        status = "interrupted"
    elif snapshot.next or snapshot.tasks:
        # The last run died (killed, or a node raised) before its end; `tasks`
        # also holds the `Send` fan-out that `next` leaves out.
        status = "crashed"
    else:
        status = None
    return _report_of(values, thread_id, _recorded_mode(snapshot.metadata), status, interrupts)


def _report_of(
    values: dict[str, Any],
    thread_id: str,
    mode: str,
    status: str | None = None,
    interrupts: list[dict[str, Any]] | None = None,
) -> RunReport:
    """The report of `values`; `status` None is the status the run itself ended with."""
    status = status or values.get("status") or "failed"
    interrupts = interrupts or []
    return RunReport(
        thread_id=thread_id,
        mode=mode,
        status=status,
        turn=int(values.get("turn") or 0),
        user_id=values.get("customer") or values.get("user_id"),
        intents=list((values.get("understanding") or {}).get("intents", [])),
        plan=[_task(t) for t in (values.get("plan") or {}).get("tasks", [])],
        interrupts=interrupts,
        answer=values.get("answer")
        or (waiting_answer(values, interrupts) if status == "interrupted" else ""),
        audit_id=values.get("audit_id"),
        question=_question(values.get("question")) if status == "needs_input" else None,
        trace=list(values.get("trace") or []),
    )


def _recorded_mode(metadata: Mapping[str, Any] | None) -> str:
    found = (metadata or {}).get(MODE_KEY)
    return found if isinstance(found, str) else DEFAULT_MODE


async def _graph_of_thread(graph: Any, ctx: SupportContext, thread_id: str) -> Any:
    """The graph that runs `thread_id`: `graph` for a new thread or one of its mode, else
    the graph of the thread's own mode over `graph`'s checkpointer and store, so a worker
    or an inbox holding one graph continues every thread in the mode that started it."""
    if graph.checkpointer is None:
        return graph
    started = await thread_mode(graph.checkpointer, thread_id)
    if started is None or started == mode_of(graph):
        return graph
    return sibling(graph, started, ctx.roles)


async def _report_if_any(graph: Any, thread_id: str) -> RunReport | None:
    try:
        return await report(graph, thread_id)
    except NotFound:
        return None


def waiting_answer(values: dict[str, Any], interrupts: list[dict[str, Any]]) -> str:
    """What the customer is told while their turn waits for an operator."""
    lang = turn_lang(values)
    if interrupts and all(i["kind"] == "escalation" for i in interrupts):
        return say(lang, "A colleague will reply to you here shortly.", "同事会尽快在这里回复您。")
    return say(
        lang,
        "Your request is waiting for a colleague's approval; I will go on as soon as they decide.",
        "您的请求正在等待同事审批，审批后我会立即继续处理。",
    )


def _question(raw: dict[str, Any] | None) -> dict[str, Any] | None:
    """The open question as clients see it (what it continues stays internal)."""
    if not raw:
        return None
    options = [{"value": o["value"], "label": o["label"]} for o in raw.get("options") or []]
    # The slot tells a client what it asks for: which record, or a value to type (an address).
    return {"kind": raw["kind"], "text": raw["text"], "slot": raw.get("slot"), "options": options}


async def thread_status(
    graph: CompiledStateGraph[Any, Any, Any, Any], ctx: SupportContext, thread_id: str
) -> str:
    """The thread's status as `threads list` shows it: a `crashed` thread some live
    process holds is `running`."""
    try:
        status = (await report(graph, thread_id)).status
    except NotFound:
        return "empty"  # checkpoints without support-graph state (another graph's thread)
    if status == "crashed" and await is_running(ctx.pool, thread_id):
        return "running"
    return status


async def _resume_queued(graph: Any, config: RunnableConfig) -> bool:
    """Whether a decision was given but the run died before the approval node used it."""
    saved = await graph.checkpointer.aget_tuple(config) if graph.checkpointer else None
    return bool(saved and any(channel == RESUME for _, channel, _ in saved.pending_writes or ()))


async def _advance(
    graph: Any,
    ctx: SupportContext,
    payload: Any,
    thread_id: str,
    actor: Identity,
    on_step: OnStep | None,
    *,
    new: bool = False,
) -> RunReport:
    """Run the thread on from `payload` to its next stop and report where it stands;
    a `new` thread (its id minted here) runs in `graph`'s mode without a look."""
    graph = graph if new else await _graph_of_thread(graph, ctx, thread_id)
    config = _config(thread_id)
    config["configurable"][AUTH_USER_KEY] = actor.as_auth_user()
    new_turn = isinstance(payload, dict)
    origin = None if new_turn or not tracing_on() else await _turn_origin(graph, config)
    customer = payload.get("user_id") if new_turn else None
    with turn_trace(
        thread_id=thread_id, mode=mode_of(graph), customer=customer, resumed_from=origin
    ) as traced:
        if traced.callbacks:
            config["callbacks"] = traced.callbacks
            config["metadata"] = traced.metadata
        ended = await _stream(graph, ctx, payload, config, on_step)
        if ended is None:
            where = await report(graph, thread_id)
        else:
            # The run went to its end: its last values are where the thread stands,
            # with no read of the checkpoint it just wrote.
            where = _report_of(ended, thread_id, mode_of(graph))
        traced.finish(audit_id=where.audit_id, customer=where.user_id, status=where.status)
    return where


INTERRUPTED = "__interrupt__"
"""The key an "updates" stream reports a run's interrupts under."""


async def _stream(
    graph: Any, ctx: SupportContext, payload: Any, config: RunnableConfig, on_step: OnStep | None
) -> dict[str, Any] | None:
    """Run the graph; its last values when the run went to its end, None when it
    stopped at an interrupt (or produced no values)."""
    # With progress lines, "sync": a step is reported only once the checkpoint
    # before it is saved, so a process killed right after a line (even the first,
    # the turn node's) leaves a thread `continue` carries on from that line.
    # Without, "async": a checkpoint is saved while the next step runs; a crash
    # loses at most the saves in flight, and re-running those steps is safe (the
    # ledger replays their effects, the approvals table their decisions).
    durability = "sync" if on_step else "async"
    stream = graph.astream(
        payload, config, context=ctx, stream_mode=["updates", "values"], durability=durability
    )
    last: dict[str, Any] | None = None
    interrupted = False
    async for kind, chunk in stream:
        if kind == "values":
            last = chunk
            continue
        interrupted = interrupted or INTERRUPTED in chunk
        for node, update in chunk.items():
            if on_step and isinstance(update, dict):
                on_step(node, _written(update))
    return None if interrupted else last


async def _turn_origin(graph: Any, config: RunnableConfig) -> str | None:
    """The `traceparent` of the first run of the turn this run resumes, if recorded."""
    snapshot = await graph.aget_state(config)
    found = (snapshot.metadata or {}).get(TURN_TRACE_KEY)
    return found if isinstance(found, str) else None


def _written(update: dict[str, Any]) -> dict[str, Any]:
    """A node's update as the values it wrote (a turn's reset `Overwrite`s unwrapped)."""
    return {k: v.value if isinstance(v, Overwrite) else v for k, v in update.items()}


def _config(thread_id: str) -> RunnableConfig:
    # Every loop in the graph is bounded (refine rounds, review revisions); the
    # limit is a backstop far above any legitimate run, well below LangGraph's 10k.
    return {"configurable": {"thread_id": thread_id}, "recursion_limit": RECURSION_LIMIT}


def _task(task: dict[str, Any]) -> dict[str, Any]:
    return {k: task.get(k) for k in ("id", "role", "skill", "args", "depends_on", "when")}


def _public(request: dict[str, Any]) -> dict[str, Any]:
    return {k: request.get(k) for k in ("id", "kind", "skill", "risk", "args", "reason")}
