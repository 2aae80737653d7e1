"""Throughput and P95 latency of queued turns with 1, 2 and 4 `rolegraph worker` processes.

For each worker count: start the workers (each `--concurrency C`), warm them up,
then submit LOAD one-lookup read turns at once (each on its own thread) and wait
for all. Latency is from the submission to the job's recorded end (both on the
database's clock); throughput is LOAD over the time to the last end. Prints one
row per worker count, with its throughput ratio to one worker.

    .venv/bin/python -m benchmarks.bench_workers [LOAD] [CONCURRENCY]
"""

from __future__ import annotations

import asyncio
import os
import signal
import statistics
import subprocess
import sys
from datetime import datetime

from procrastinate import App

from benchmarks.subjects import orders
from benchmarks.table import Row, p95, ratio, render
from checkpoints.jobs import open_queue
from checkpoints.opening import Database, open_database
from graphs.jobs import TurnRequest, submit_turn, wait_turns
from nodes.domain import load_domain

WORKER_COUNTS = (1, 2, 4)
WARM_UP = 8


async def measure(db: Database, load: int, concurrency: int) -> list[Row]:
    """One row per worker count: throughput and latency of the same queued load."""
    async with open_queue(db.pool) as queue:
        subjects = await orders(db, load)
        measured = [await _measure(db, queue, subjects, n, concurrency) for n in WORKER_COUNTS]
    base = measured[0][0]
    return [
        Row(
            f"{n} worker process(es), {load} queued read turns",
            f"{rate:.1f} turns/s",
            f"{base:.1f} turns/s one worker" if n > 1 else "",
            ratio(rate, base) if n > 1 else "",
            f"P95 {p95_s:.2f} s, median {median_s:.2f} s; --concurrency {concurrency} each",
        )
        for n, (rate, p95_s, median_s) in zip(WORKER_COUNTS, measured, strict=True)
    ]


async def main(load: int, concurrency: int) -> None:
    migrations = (load_domain().migrations,)
    async with open_database(migrations=migrations) as db:
        print(render(await measure(db, load, concurrency)))


async def _measure(
    db: Database, queue: App, subjects: list[tuple[str, str]], workers: int, concurrency: int
) -> tuple[float, float, float]:
    procs = [await asyncio.to_thread(_start, concurrency) for _ in range(workers)]
    try:
        await _batch(db, queue, subjects[:WARM_UP])
        started, ends = await _batch(db, queue, subjects)
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            await asyncio.to_thread(proc.wait, 120)
    latencies = sorted((end - started).total_seconds() for end in ends)
    return len(ends) / latencies[-1], p95(latencies), statistics.median(latencies)


async def _batch(
    db: Database, queue: App, subjects: list[tuple[str, str]]
) -> tuple[datetime, list[datetime]]:
    started = await _now(db)
    requests = [TurnRequest.new_turn(f"status of {order}?", user) for order, user in subjects]
    jobs = [await submit_turn(queue, r) for r in requests]
    done = await wait_turns(db.pool, jobs, timeout_s=900)
    failed = [j for j, turn in done.items() if turn.report.status != "completed"]
    if len(done) != len(jobs) or failed:
        raise SystemExit(f"{len(jobs) - len(done)} turns unfinished, {len(failed)} not completed")
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT finished_at FROM rolegraph_turn_jobs WHERE job_id = ANY(%s)", (jobs,)
        )
        return started, [r["finished_at"] for r in await cur.fetchall()]


async def _now(db: Database) -> datetime:
    async with db.pool.connection() as conn:
        cur = await conn.execute("SELECT clock_timestamp() AS t")
        row = await cur.fetchone()
    assert row is not None
    return datetime.fromisoformat(str(row["t"])) if isinstance(row["t"], str) else row["t"]


def _start(concurrency: int) -> subprocess.Popen[str]:
    """A worker process, once it says it is running."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "rolegraph_cli.main", "worker", "--concurrency", str(concurrency)],
        env=dict(os.environ), stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("worker: running"):
        raise SystemExit(f"worker did not start: {line!r}")
    return proc


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    asyncio.run(main(*(args + [60, 4][len(args) :])))
