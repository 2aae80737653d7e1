"""Concurrent conversations in one process on one pool: 1, 10, 50 and 100 at once.

Each round runs every level once (the order rotates from round to round, so
drift on a shared machine falls on all alike): LEVEL one-lookup read requests
at once, each on its own thread, through the whole support graph. Per level:
errors, requests per second (median of the rounds) and the P95 latency of all
its requests, with ratios to one conversation at a time. The top level also
runs on LangGraph's stock `AsyncPostgresSaver`, whose one lock per instance
(langgraph#7259) serialises every checkpoint read and write of the process.

    .venv/bin/python -m benchmarks.bench_concurrency [ROUNDS]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from benchmarks.subjects import orders
from benchmarks.table import Row, p95, ratio, render
from checkpoints.opening import Database, open_database
from graphs.api import compile_support, run_request
from nodes.bootstrap import build_support_context
from nodes.context import SupportContext
from nodes.domain import load_domain

LEVELS = (1, 10, 50, 100)
STOCK = "stock saver"


@dataclass
class Level:
    """What one level's rounds measured."""

    rates: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    errors: int = 0


async def measure(db: Database, rounds: int) -> list[Row]:
    subjects = await orders(db, max(LEVELS))
    ctx = await build_support_context(db.pool, env={})
    graphs = {
        "rolegraph": compile_support(ctx, db.checkpointer, db.store),
        STOCK: compile_support(ctx, AsyncPostgresSaver(db.pool), db.store),
    }
    cases = [("rolegraph", n) for n in LEVELS] + [(STOCK, max(LEVELS))]
    seen = {case: Level() for case in cases}
    for r in range(rounds):
        for saver, n in cases[r % len(cases) :] + cases[: r % len(cases)]:
            await _round(ctx, graphs[saver], subjects[:n], seen[(saver, n)])
    return _rows(seen, db.pool.max_size)


async def _round(
    ctx: SupportContext, graph: Any, subjects: list[tuple[str, str]], level: Level
) -> None:
    async def one(order: str, user: str) -> bool:
        start = time.perf_counter()
        try:
            report = await run_request(graph, ctx, text=f"status of {order}?", user_id=user)
        except Exception:  # noqa: BLE001 — counted: the benchmark reports errors, it does not stop
            return False
        level.latencies.append((time.perf_counter() - start) * 1000)
        return report.status == "completed"

    started = time.perf_counter()
    done = await asyncio.gather(*(one(order, user) for order, user in subjects))
    level.rates.append(len(subjects) / (time.perf_counter() - started))
    level.errors += done.count(False)


def _rows(seen: dict[tuple[str, int], Level], pool_size: int) -> list[Row]:
    single = seen[("rolegraph", 1)]
    base_rate, base_p95 = statistics.median(single.rates), p95(single.latencies)
    rows = []
    for (saver, n), level in seen.items():
        rate, tail = statistics.median(level.rates), p95(level.latencies or [0.0])
        name = f"{n} concurrent conversations" if n > 1 else "1 conversation at a time"
        name += f", {STOCK} (one lock)" if saver == STOCK else ""
        note = f"{level.errors} errors; P95 {tail:.0f} ms = {ratio(tail, base_p95)} of one"
        if saver == STOCK:
            ours = statistics.median(seen[("rolegraph", n)].rates)
            note = f"{level.errors} errors; rolegraph/stock {ratio(ours, rate)}"
        rows.append(
            Row(
                name,
                f"{rate:.1f} req/s",
                f"{base_rate:.1f} req/s one at a time",
                ratio(rate, base_rate),
                note,
            )
        )
    rows[0] = Row(
        rows[0].measure,
        rows[0].value,
        "",
        "",
        f"{single.errors} errors; P95 {base_p95:.0f} ms; pool of {pool_size}",
    )
    return rows


async def main(rounds: int) -> None:
    # A fresh database has no domain tables yet: the reference data needs them.
    async with open_database(migrations=(load_domain().migrations,)) as db:
        print(render(await measure(db, rounds)))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
