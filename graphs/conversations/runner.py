"""Run a conversation suite through the Python API and score it turn by turn.

Each customer turn is `run_request` as that customer (their own identity, as
an authenticated client would be), each operator step `resume_thread` as the
suite's operator. Every conversation starts from the data and the memory the
suite started from. After it, any request its threads still wait on is
answered (an approval rejected, an escalation replied to), so none stays in
the operators' inbox; the domain's restore point (`DomainSeed.restore_point`)
puts back the records it changed — and names them, which the script's
`changes` is checked against — and its customers' memory is put back as it
was. Threads and the audit trail stay.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore, Item

from checkpoints.errors import InvalidArgument, RolegraphError
from graphs.api import report, resume_thread, run_request
from graphs.conversations.results import ConversationResult, SuiteReport, TurnResult
from graphs.conversations.scoring import TurnOutcome, judge
from graphs.conversations.script import Conversation, CustomerTurn, OperatorTurn, Suite
from nodes.context import SupportContext
from nodes.domain import Restore
from nodes.identity import Identity
from nodes.memory.store import namespace

Graph = CompiledStateGraph[Any, Any, Any, Any]
OnResult = Callable[[ConversationResult], None]
SUITE_OPERATOR = Identity("operator", "conversation-suite")
"""Who answers the suite's operator steps (recorded as the approver)."""
CLOSING = "Closed by the conversation suite at the end of its script."


async def run_suite(
    graph: Graph,
    ctx: SupportContext,
    suite: Suite,
    *,
    operator: Identity = SUITE_OPERATOR,
    on_result: OnResult | None = None,
) -> SuiteReport:
    """Every conversation of `suite`, one after another, each scored turn by turn."""
    await _check_customers(ctx, suite.users())
    restore = await ctx.domain.seed.restore_point(ctx.pool) if ctx.domain.seed else None
    tag = uuid.uuid4().hex[:6]
    results = []
    for conversation in suite.conversations:
        result = await _conversation(graph, ctx, conversation, operator, restore, tag)
        if on_result is not None:
            on_result(result)
        results.append(result)
    return SuiteReport(results)


async def _check_customers(ctx: SupportContext, users: Iterable[str]) -> None:
    missing = sorted(
        [u for u in users if not await ctx.domain.records.customer_exists(ctx.pool, u)]
    )
    if missing:
        hint = f" ({ctx.domain.seed.empty_hint})" if ctx.domain.seed else ""
        raise InvalidArgument(
            f"the suite names customers this database does not hold ({', '.join(missing[:3])}"
            f"{', …' if len(missing) > 3 else ''}); load the data it was written for{hint}"
        )


async def _conversation(
    graph: Graph,
    ctx: SupportContext,
    conversation: Conversation,
    operator: Identity,
    restore: Restore | None,
    tag: str,
) -> ConversationResult:
    put_memory_back = await _memory_point(graph.store, conversation.users())
    threads: dict[int, str] = {}
    turns: list[TurnResult] = []
    try:
        for number, turn in enumerate(conversation.turns, start=1):
            thread_id = threads.setdefault(
                turn.thread, f"conv-{tag}-{conversation.id}-{turn.thread}"
            )
            got = await _step(graph, ctx, conversation, turn, thread_id, operator)
            turns.append(TurnResult(number, _said(turn), got, judge(turn.expect, got)))
    finally:
        await _close_open_requests(graph, ctx, threads.values(), operator)
        changed = await restore() if restore is not None else None
        await put_memory_back()
    return ConversationResult(conversation.id, _with_changes(turns, conversation, changed), changed)


async def _step(
    graph: Graph,
    ctx: SupportContext,
    conversation: Conversation,
    turn: CustomerTurn | OperatorTurn,
    thread_id: str,
    operator: Identity,
) -> TurnOutcome:
    try:
        if isinstance(turn, CustomerTurn):
            user = turn.as_user or conversation.user
            return TurnOutcome.of(
                await run_request(
                    graph, ctx, text=turn.say, user_id=user, thread_id=thread_id,
                    actor=Identity("customer", user),
                )
            )  # fmt: skip
        request_id = await _request_of(graph, thread_id, turn.request) if turn.request else None
        return TurnOutcome.of(
            await resume_thread(
                graph, ctx, thread_id, decision=turn.operator, request_id=request_id,
                args=turn.args, message=turn.message, actor=operator,
            )
        )  # fmt: skip
    except RolegraphError as exc:
        return TurnOutcome.refused(exc)
    except Exception as exc:  # noqa: BLE001 — a crash is the turn's failure; the suite goes on
        return TurnOutcome(status="error", answer=f"{type(exc).__name__}: {exc}")


async def _request_of(graph: Graph, thread_id: str, skill: str) -> str:
    pending = (await report(graph, thread_id)).interrupts
    found = [r["id"] for r in pending if r.get("skill") == skill]
    if not found:
        raise InvalidArgument(f"thread {thread_id!r} has no pending request for {skill}")
    return str(found[0])


async def _close_open_requests(
    graph: Graph, ctx: SupportContext, thread_ids: Iterable[str], operator: Identity
) -> None:
    """Answer what the script left waiting (reject an approval, reply to an
    escalation), so no suite thread stays in the operators' inbox."""
    for thread_id in thread_ids:
        try:
            pending = (await report(graph, thread_id)).interrupts
        except RolegraphError:
            continue  # the thread never started (its first turn was refused)
        for request in pending:
            escalation = request.get("kind") == "escalation"
            try:
                await resume_thread(
                    graph, ctx, thread_id, request_id=str(request["id"]), actor=operator,
                    decision="reply" if escalation else "reject", message=CLOSING if escalation else None,
                )  # fmt: skip
            except RolegraphError:
                continue  # answered by an earlier decision of this loop


def _said(turn: CustomerTurn | OperatorTurn) -> str:
    if isinstance(turn, OperatorTurn):
        return f"operator: {turn.operator}" + (f" {turn.request}" if turn.request else "")
    who = f" (as {turn.as_user})" if turn.as_user else ""
    where = f" [thread {turn.thread}]" if turn.thread != 1 else ""
    return f"say{who}{where}: {turn.say}"


def _with_changes(
    turns: list[TurnResult], conversation: Conversation, changed: tuple[str, ...] | None
) -> list[TurnResult]:
    """The turns, the last one failing when the records changed are not the script's."""
    if conversation.changes is None or not turns:
        return turns
    if changed is None:
        problem = "the domain cannot tell what changed (no restore point)"
    elif sorted(_norm(c) for c in changed) == sorted(_norm(c) for c in conversation.changes):
        return turns
    else:
        problem = f"changed {sorted(changed)}, want {sorted(conversation.changes)}"
    last = turns[-1]
    return [*turns[:-1], dataclasses.replace(last, problems=[*last.problems, problem])]


def _norm(record_id: str) -> str:
    return record_id.strip().lstrip("#").casefold()


async def _memory_point(
    store: BaseStore | None, users: Iterable[str]
) -> Callable[[], Awaitable[None]]:
    """The customers' memory as it is now, and the way back to it."""
    kept: dict[str, list[Item]] = {}
    for user in users:
        kept[user] = list(await store.asearch(namespace(user), limit=1000)) if store else []

    async def put_back() -> None:
        if store is None:
            return
        for user, items in kept.items():
            for found in await store.asearch(namespace(user), limit=1000):
                await store.adelete(namespace(user), found.key)
            for item in items:
                await store.aput(namespace(user), item.key, item.value, index=False)

    return put_back
