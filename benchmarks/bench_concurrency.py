"""Throughput of concurrent conversations in one process: the saver's one lock
(LangGraph's `AsyncPostgresSaver`, langgraph#7259) against `PooledSaver`.

Each round runs CONCURRENCY one-lookup read requests at once, each on its own
thread, through the whole support graph on the same pool and database, once
with each saver; the order of the two alternates from round to round. Prints
the median requests per second of each and their ratio, and the errors.

    .venv/bin/python -m benchmarks.bench_concurrency [CONCURRENCY] [ROUNDS]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from typing import Any

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from checkpoints.opening import Database, open_database
from checkpoints.saver import PooledSaver, saver_concurrency
from domains.retail.storage.seed import ensure_reference_data
from graphs.api import compile_support, run_request
from nodes.bootstrap import build_support_context
from nodes.context import SupportContext


async def main(concurrency: int, rounds: int) -> None:
    async with open_database() as db:
        async with db.pool.connection() as conn:
            await ensure_reference_data(conn)
            cur = await conn.execute(
                "SELECT order_id, user_id FROM orders ORDER BY order_id LIMIT %s", (concurrency,)
            )
            subjects = [(r["order_id"], r["user_id"]) for r in await cur.fetchall()]
        ctx = await build_support_context(db.pool, env={})
        savers = {
            "one lock (AsyncPostgresSaver)": AsyncPostgresSaver(db.pool),
            "PooledSaver": PooledSaver(db.pool, concurrency=saver_concurrency(db.pool.max_size)),
        }
        rates: dict[str, list[float]] = {name: [] for name in savers}
        errors: dict[str, int] = dict.fromkeys(savers, 0)
        for n in range(rounds):
            order = list(savers) if n % 2 == 0 else list(reversed(savers))
            for name in order:
                rate, failed = await _round(db, ctx, savers[name], subjects)
                rates[name].append(rate)
                errors[name] += failed
    base, pooled = (statistics.median(rates[name]) for name in savers)
    print(f"{concurrency} concurrent read requests, {rounds} rounds, pool of {db.pool.max_size}:")
    for name in savers:
        print(f"  {name}: {statistics.median(rates[name]):.1f} requests/s, {errors[name]} errors")
    print(f"  ratio PooledSaver / one lock: {pooled / base:.2f}x")


async def _round(
    db: Database, ctx: SupportContext, saver: Any, subjects: list[tuple[str, str]]
) -> tuple[float, int]:
    graph = compile_support(ctx, saver, db.store)
    started = time.perf_counter()
    results = await asyncio.gather(
        *(
            run_request(graph, ctx, text=f"status of {order}?", user_id=user)
            for order, user in subjects
        ),
        return_exceptions=True,
    )
    elapsed = time.perf_counter() - started
    failed = sum(1 for r in results if isinstance(r, BaseException) or r.status != "completed")
    return len(subjects) / elapsed, failed


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    asyncio.run(main(*(args + [32, 5][len(args) :])))
