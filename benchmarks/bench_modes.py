"""The execution modes side by side on the same requests, with a scripted model.

Every mode of `graphs.modes` runs the golden paths on the same (scratch) database with
the same model: a read ("where is my package for ...?") and a cancel the
customer confirms ("yes") and an operator approves. The model is scripted: it
reads each request as its intent and slots, and plans what the planner's draft
plans, so every mode gets the same, correct model output and differs only in
how it runs it; in the `react` mode, as the front role's agent, it calls the
one tool the request needs and then says what the tool's result shows. Modes alternate request by request (interleaved), so machine
noise falls on all alike.

Prints, per mode and request: success (runs that ended as the golden path
should, on the model's reading and plan), model calls and tokens per request (from the token ledger, counted
not timed), and the median, min and max milliseconds per request.

    .venv/bin/python -m benchmarks.bench_modes [SAMPLES]
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from pydantic import Field

from checkpoints.database import resolve_database
from checkpoints.opening import Database, open_database
from checkpoints.scratch import scratch_database
from checkpoints.settings import DatabaseSettings
from domains.retail.storage.seed import ensure_reference_data
from graphs.api import RunReport, compile_support, resume_thread, run_request
from graphs.modes import MODES
from nodes.bootstrap import build_support_context
from nodes.context import SupportContext
from nodes.domain import load_domain
from nodes.identity import Identity
from nodes.models import ModelTiers

WARMUP = 1
OPERATOR = Identity("operator", "bench-operator")
_DRAFT = "Draft plan: "
Run = Callable[[], Awaitable[tuple[bool, str]]]


class ScriptedReader(BaseChatModel):
    """Answers intake with the reading it is given per request, the planner with its
    own draft (the rules plan), and a role agent with the one tool call its request
    needs, then a sentence on its result — a model that is always right, at a fixed
    token cost per character of prompt and reply."""

    readings: dict[str, str] = Field(default_factory=dict)
    """Request text -> the intake reply for it."""
    actions: dict[str, tuple[str, dict[str, Any], str]] = Field(default_factory=dict)
    """Order id -> the tool call an agent makes for a request naming it, and what it
    says once the call ran."""

    @property
    def _llm_type(self) -> str:
        return "scripted-reader"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, BaseMessage]:
        """The tools are the agent's; the script decides what it calls."""
        return self

    def _generate(self, messages: list[BaseMessage], *_: Any, **__: Any) -> ChatResult:
        message = self._agent_step(messages) or AIMessage(
            content=self._reply(str(messages[-1].content))
        )
        prompt = sum(len(str(m.content)) for m in messages)
        reply = len(str(message.content)) + len(json.dumps(message.tool_calls))
        message.usage_metadata = {
            "input_tokens": prompt // 4,
            "output_tokens": reply // 4,
            "total_tokens": (prompt + reply) // 4,
        }
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _agent_step(self, messages: list[BaseMessage]) -> AIMessage | None:
        turn = "\n".join(str(m.content) for m in messages[1:3])
        order = next((o for o in self.actions if "<goal>" in turn and o in turn), None)
        if order is None:
            return None
        name, args, said = self.actions[order]
        if isinstance(messages[-1], ToolMessage):
            return AIMessage(content=said)
        call = {"name": name, "args": args, "id": f"call-{len(messages)}", "type": "tool_call"}
        return AIMessage(content="", tool_calls=[call])

    def _reply(self, request: str) -> str:
        for line in request.splitlines():
            if line.startswith(_DRAFT):
                return json.dumps({"tasks": json.loads(line.removeprefix(_DRAFT))})
        return next((reading for text, reading in self.readings.items() if text in request), "{}")


@dataclasses.dataclass(frozen=True)
class Subjects:
    """Reference data the requests name: a processed order, and pending orders to cancel."""

    read_user: str
    read_order: str
    pending: list[tuple[str, str]]


async def main(samples: int) -> None:
    # A scratch copy: the cancels change orders, never the project's own.
    server = resolve_database(DatabaseSettings.from_env())
    migrations = (load_domain("retail").migrations,)
    async with (
        scratch_database(server, "rg_bench_modes") as target,
        open_database(target=target, migrations=migrations) as db,
    ):
        subjects = await _subjects(db, (WARMUP + samples) * len(MODES))
        model = ScriptedReader()
        base = await build_support_context(db.pool, env={})
        ctx = dataclasses.replace(base, models=ModelTiers(large=model))
        graphs = {m: compile_support(ctx, db.checkpointer, db.store, mode=m) for m in MODES}
        requests = {
            "read": lambda g: _read(g, ctx, model, subjects),
            "cancel (confirm + approve)": lambda g: _cancel(g, ctx, model, subjects),
        }
        for name, request in requests.items():
            sides = {mode: request(graph) for mode, graph in graphs.items()}
            _print(name, await _interleaved(db, sides, samples), samples)


async def _subjects(db: Database, cancels: int) -> Subjects:
    async with db.pool.connection() as conn:
        await ensure_reference_data(conn)
        cur = await conn.execute(
            "SELECT order_id, user_id FROM orders WHERE status = 'processed'"
            " ORDER BY order_id LIMIT 1"
        )
        read = await cur.fetchone()
        cur = await conn.execute(
            "SELECT order_id, user_id FROM orders WHERE status = 'pending'"
            " ORDER BY order_id LIMIT %s",
            (cancels,),
        )
        pending = [(r["user_id"], r["order_id"]) for r in await cur.fetchall()]
    assert read is not None
    if len(pending) < cancels:
        raise SystemExit(f"the reference data has {len(pending)} pending orders; run fewer samples")
    return Subjects(read["user_id"], read["order_id"], pending)


def _read(graph: Any, ctx: SupportContext, model: ScriptedReader, s: Subjects) -> Run:
    text = f"where is my package for {s.read_order}?"
    model.readings[text] = _reading("track_shipment", s.read_order)
    model.actions[s.read_order] = (
        "track_shipment_v1",
        {"order_id": s.read_order},
        f"Here is the tracking of order {s.read_order}.",
    )

    async def run() -> tuple[bool, str]:
        done = await run_request(graph, ctx, text=text, user_id=s.read_user)
        return done.status == "completed" and _modelled(done), done.thread_id

    return run


def _cancel(graph: Any, ctx: SupportContext, model: ScriptedReader, s: Subjects) -> Run:
    async def run() -> tuple[bool, str]:
        user, order = s.pending.pop()
        text = f"please cancel {order}, ordered by mistake"
        model.readings[text] = _reading("cancel_order", order, reason="ordered by mistake")
        model.actions[order] = (
            "cancel_pending_order_v1",
            {"order_id": order, "reason": "ordered by mistake"},
            f"I cancelled order {order}.",
        )
        asked = await run_request(graph, ctx, text=text, user_id=user)
        said: RunReport = await run_request(
            graph, ctx, text="yes", user_id=user, thread_id=asked.thread_id
        )
        if said.status != "interrupted":
            return False, said.thread_id
        done = await resume_thread(graph, ctx, said.thread_id, decision="approve", actor=OPERATOR)
        ok = done.status == "completed" and "cancelled" in done.answer and _modelled(asked)
        return ok, done.thread_id

    return run


def _modelled(done: RunReport) -> bool:
    """Whether the model's reading and plan ran (not a fall-back to the rules tier): the
    model's plan, or in the react mode the front agent's goal, carried by the agent."""
    tiers = {line.split(":")[0] for line in done.trace}
    if "planner[react]" in tiers:
        carried = not any(line.startswith("fallback:") for line in done.trace)
        return "intake[large]" in tiers and carried
    return {"intake[large]", "planner[large]"} <= tiers


def _reading(intent: str, order: str, **slots: str) -> str:
    return json.dumps({"intents": [intent], "slots": {"order_ids": [order], **slots}})


@dataclasses.dataclass
class _Side:
    times: list[float] = dataclasses.field(default_factory=list)
    calls: list[int] = dataclasses.field(default_factory=list)
    tokens: list[int] = dataclasses.field(default_factory=list)
    succeeded: int = 0


async def _interleaved(db: Database, sides: dict[str, Run], samples: int) -> dict[str, _Side]:
    results = {name: _Side() for name in sides}
    names = list(sides)
    for n in range(WARMUP + samples):
        for name in names[n % len(names) :] + names[: n % len(names)]:
            start = time.perf_counter()
            ok, thread_id = await sides[name]()
            elapsed = (time.perf_counter() - start) * 1000
            if n < WARMUP:
                continue
            calls, tokens = await _ledger(db, thread_id)
            side = results[name]
            side.times.append(elapsed)
            side.calls.append(calls)
            side.tokens.append(tokens)
            side.succeeded += ok
    return results


async def _ledger(db: Database, thread_id: str) -> tuple[int, int]:
    """The model calls and tokens the thread's rows of the token ledger record."""
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS calls, coalesce(sum(input_tokens + output_tokens), 0) AS tokens"
            " FROM token_ledger WHERE thread_id = %s",
            (thread_id,),
        )
        row = await cur.fetchone()
    assert row is not None
    return int(row["calls"]), int(row["tokens"])


def _print(request: str, results: dict[str, _Side], samples: int) -> None:
    print(f"{request}, {samples} samples per mode (scripted model):")
    for mode, side in results.items():
        median = statistics.median(side.times)
        print(
            f"  {mode:14} success {side.succeeded}/{samples}"
            f"  model calls {statistics.median(side.calls):4.0f}"
            f"  tokens {statistics.median(side.tokens):6.0f}"
            f"  median {median:7.1f} ms  (min {min(side.times):.1f}, max {max(side.times):.1f})"
        )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10))
