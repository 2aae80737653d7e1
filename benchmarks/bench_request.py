"""What a whole request costs against the floor: rolegraph's support graph on the
rules tier against LangGraph's prebuilt ReAct agent making the same tool calls.

Both run on the same database, each request on a new thread, checkpointed in
the same Postgres tables: rolegraph by its own saver, the prebuilt agent by
LangGraph's stock `AsyncPostgresSaver`. The prebuilt agent is driven by a scripted chat model
that asks for exactly the skill calls rolegraph's own request made (read from
its audit chain), and its tools call the same executors directly — no
permission, confirmation, ledger, audit or approval. The two alternate
request by request (interleaved), so machine noise falls on both alike.

Prints, per side, the median, min and max milliseconds per request, its
ratio to the prebuilt agent, and the write transactions per request
(counted, not timed). Both run with LangGraph's default durability (a
checkpoint saved while the next step runs). Two more rolegraph sides show what
the cheaper choices buy: with progress lines (as the CLI prints them, each
step's checkpoint saved before the next starts), and with checkpoint commits
that wait for the disk (`ROLEGRAPH_CHECKPOINT_COMMIT=durable`).

    .venv/bin/python -m benchmarks.bench_request [SAMPLES]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
import warnings
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.tools import StructuredTool
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from benchmarks.table import Row, Spread, ratio, render
from checkpoints.opening import Database, open_database
from checkpoints.saver import PooledSaver
from domains.retail.storage.seed import ensure_reference_data
from graphs.api import compile_support, new_thread_id, run_request
from nodes.bootstrap import build_support_context
from nodes.context import SupportContext
from nodes.domain import load_domain
from skills.context import RuntimeContext

TEXT = "what's the status of my order {order_id}?"
WARMUP = 3


class _ScriptedToolModel(FakeMessagesListChatModel):
    """The fake chat model, told it may call tools (the script already names them)."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> _ScriptedToolModel:
        return self


PREBUILT = "prebuilt agent, same calls"
SIDES = (
    ("rolegraph read request (rules tier)", None),
    ("... with progress lines (the CLI's sync saves)", "progress"),
    ("... with checkpoint commits waiting for the disk", "durable"),
)


async def measure(db: Database, samples: int) -> list[Row]:
    """Rows: each rolegraph side against the prebuilt agent, their write
    transactions (counted), and the commit floor they imply."""
    order_id, user_id = await _subject(db)
    ctx = await build_support_context(db.pool, env={})
    graph = compile_support(ctx, db.checkpointer, db.store)
    durable = PooledSaver(db.pool, concurrency=1, durable_commits=True)
    durable_graph = compile_support(ctx, durable, db.store)
    text = TEXT.format(order_id=order_id)

    def rolegraph(kind: str | None) -> Callable[[], Awaitable[None]]:
        on_step = _quiet if kind == "progress" else None
        target = durable_graph if kind == "durable" else graph

        async def run() -> None:
            report = await run_request(target, ctx, text=text, user_id=user_id, on_step=on_step)
            assert report.status == "completed", report.status

        return run

    calls = await _skill_calls(db, graph, ctx, text, user_id)
    sides = {PREBUILT: _prebuilt_agent(db, ctx, calls, user_id)}
    sides |= {name: rolegraph(kind) for name, kind in SIDES}
    results = await _interleaved(db, sides, samples)
    commit = await commit_latency(db, samples)
    return _rows(results, calls, commit)


def _rows(
    results: dict[str, tuple[list[float], list[int]]],
    calls: list[tuple[str, dict[str, Any]]],
    commit: Spread,
) -> list[Row]:
    base = Spread.of(results[PREBUILT][0])
    base_writes = statistics.median(results[PREBUILT][1])
    skills = ", ".join(s for s, _ in calls)
    rows = []
    for name, _ in SIDES:
        side = Spread.of(results[name][0])
        note = side.range_ms() + (f"; calls {skills}" if not rows else "")
        rows.append(
            Row(name, side.ms(), f"{base.ms()} {PREBUILT}", ratio(side.median, base.median), note)
        )
    writes = statistics.median(results[SIDES[0][0]][1])
    rows.append(
        Row(
            "write transactions per read request (counted)",
            f"{writes:.0f}",
            f"{base_writes:.0f} {PREBUILT}",
            ratio(writes, base_writes),
            "checkpoint commits do not wait for the disk; the others do",
        )
    )
    rows.append(
        Row(
            "commit floor: write transactions x one durable commit",
            f"{writes * commit.median:.1f} ms",
            f"{base_writes * commit.median:.1f} ms",
            ratio(writes, base_writes),
            f"one durable commit {commit.ms()} ({commit.range_ms()})",
        )
    )
    return rows


async def commit_latency(db: Database, samples: int) -> Spread:
    """One small write transaction that waits for the disk (autocommit, the
    server's default `synchronous_commit`), timed."""
    times = []
    async with db.pool.connection() as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS bench_commit_floor (n int)")
        try:
            for n in range(samples + WARMUP):
                start = time.perf_counter()
                await conn.execute("INSERT INTO bench_commit_floor VALUES (%s)", (n,))
                if n >= WARMUP:
                    times.append((time.perf_counter() - start) * 1000)
        finally:
            await conn.execute("DROP TABLE bench_commit_floor")
    return Spread.of(times)


async def main(samples: int) -> None:
    # A fresh database has no domain tables yet: the reference data needs them.
    async with open_database(migrations=(load_domain().migrations,)) as db:
        print(render(await measure(db, samples)))


async def _subject(db: Database) -> tuple[str, str]:
    async with db.pool.connection() as conn:
        await ensure_reference_data(conn)
        cur = await conn.execute(
            "SELECT order_id, user_id FROM orders WHERE status = 'delivered'"
            " ORDER BY order_id LIMIT 1"
        )
        row = await cur.fetchone()
    assert row is not None
    return row["order_id"], row["user_id"]


async def _skill_calls(
    db: Database, graph: Any, ctx: SupportContext, text: str, user_id: str
) -> list[tuple[str, dict[str, Any]]]:
    """The skill calls one rolegraph request makes, with their arguments, in order."""
    report = await run_request(graph, ctx, text=text, user_id=user_id)
    calls = [
        (task["skill"], dict(task.get("args") or {}))
        for task in report.plan
        if task.get("skill") in ctx.registry
    ]
    assert calls, f"the request ran no skill: {report.plan}"
    return calls


def _quiet(node: str, update: dict[str, Any]) -> None:
    """A progress callback that prints nothing: the CLI's checkpointing without its output."""


def _prebuilt_agent(
    db: Database, ctx: SupportContext, calls: list[tuple[str, dict[str, Any]]], user_id: str
) -> Callable[[], Awaitable[None]]:
    from langgraph.prebuilt import create_react_agent

    skill_ctx = RuntimeContext(pool=db.pool, user_id=user_id)
    stock_saver = AsyncPostgresSaver(db.pool)  # LangGraph's own, as a user of it would run it
    tools = [_direct_tool(ctx, skill, skill_ctx) for skill in dict.fromkeys(s for s, _ in calls)]
    script: list[BaseMessage] = [
        AIMessage("", tool_calls=[{"name": s, "args": a, "id": f"call-{n}"}])
        for n, (s, a) in enumerate(calls)
    ]
    script.append(AIMessage("Your order has been delivered."))

    async def run() -> None:
        model = _ScriptedToolModel(responses=script)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # create_react_agent is deprecated, not gone
            agent = create_react_agent(model, tools, checkpointer=stock_saver)
        config = {"configurable": {"thread_id": new_thread_id()}}
        # LangGraph's default durability ("async"), like rolegraph's API without progress lines.
        out = await agent.ainvoke({"messages": [("user", "status?")]}, config)
        assert out["messages"][-1].content, out

    return run


def _direct_tool(ctx: SupportContext, skill: str, skill_ctx: RuntimeContext) -> StructuredTool:
    executor = ctx.registry.get(skill).executor

    async def call(**args: Any) -> str:
        result = await executor.execute(executor.validate_input(args), skill_ctx)
        return str(result)

    return StructuredTool.from_function(
        coroutine=call, name=skill, description=skill, args_schema=None, infer_schema=False
    )


async def _interleaved(
    db: Database, sides: dict[str, Callable[[], Awaitable[None]]], samples: int
) -> dict[str, tuple[list[float], list[int]]]:
    results: dict[str, tuple[list[float], list[int]]] = {name: ([], []) for name in sides}
    names = list(sides)
    for n in range(WARMUP + samples):
        order = names[n % len(names) :] + names[: n % len(names)]
        for name in order:
            before = await _write_transactions(db)
            start = time.perf_counter()
            await sides[name]()
            elapsed = (time.perf_counter() - start) * 1000
            syncs = await _write_transactions(db) - before
            if n >= WARMUP:
                results[name][0].append(elapsed)
                results[name][1].append(syncs)
    return results


async def _write_transactions(db: Database) -> int:
    """Transaction ids handed out so far: one per transaction that wrote, i.e. per
    durable commit (a read-only transaction, like this one, takes none)."""
    async with db.pool.connection() as conn:
        cur = await conn.execute("SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax")
        row = await cur.fetchone()
    assert row is not None
    return int(row["xmax"])


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 30))
