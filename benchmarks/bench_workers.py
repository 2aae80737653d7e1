"""Throughput and P95 latency of queued turns with 1, 2 and 4 `rolegraph worker` processes.

A measurement starts the workers (each `--concurrency C`), warms them up, submits
LOAD one-lookup read turns at once (each on its own thread) and waits for all.
Latency is from the submission to the job's recorded end (both on the database's
clock); throughput is LOAD over the time to the last end. The worker counts are
measured in ROUNDS rounds, interleaved (each round in a rotated order), and each
row gives the median throughput with its min and max, and the median P95; its
ratio is against the median of one worker.

    .venv/bin/python -m benchmarks.bench_workers [LOAD] [CONCURRENCY] [ROUNDS]
"""

from __future__ import annotations

import asyncio
import os
import signal
import statistics
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime

from procrastinate import App

from benchmarks.subjects import orders
from benchmarks.table import Row, Spread, p95, ratio, render
from checkpoints.jobs import open_queue
from checkpoints.opening import Database, open_database
from graphs.jobs import TurnRequest, submit_turns, wait_turns
from nodes.domain import load_domain

WORKER_COUNTS = (1, 2, 4)
WARM_UP = 8
ROUNDS = 5


@dataclass(frozen=True)
class Batch:
    """One measured batch: its throughput and latencies."""

    rate: float
    p95_s: float
    median_s: float


async def measure(db: Database, load: int, concurrency: int, rounds: int = ROUNDS) -> list[Row]:
    """One row per worker count: throughput and latency of the same queued load."""
    measured: dict[int, list[Batch]] = {n: [] for n in WORKER_COUNTS}
    async with open_queue(db.pool) as queue:
        subjects = await orders(db, load)
        for r in range(rounds):
            for n in WORKER_COUNTS[r % 3 :] + WORKER_COUNTS[: r % 3]:
                measured[n].append(await _measure(db, queue, subjects, n, concurrency))
    base = statistics.median(b.rate for b in measured[1])
    rows = []
    for n, batches in measured.items():
        rate = Spread.of([b.rate for b in batches])
        rows.append(
            Row(
                f"{n} worker process(es), {load} queued read turns",
                f"{rate.median:.1f} turns/s",
                f"{base:.1f} turns/s one worker" if n > 1 else "",
                ratio(rate.median, base) if n > 1 else "",
                f"min {rate.low:.1f}, max {rate.high:.1f}, n={rate.count};"
                f" P95 {statistics.median(b.p95_s for b in batches):.2f} s,"
                f" median {statistics.median(b.median_s for b in batches):.2f} s;"
                f" --concurrency {concurrency} each",
            )
        )
    return rows


async def main(load: int, concurrency: int, rounds: int) -> None:
    migrations = (load_domain().migrations,)
    async with open_database(migrations=migrations) as db:
        print(render(await measure(db, load, concurrency, rounds)))


async def _measure(
    db: Database, queue: App, subjects: list[tuple[str, str]], workers: int, concurrency: int
) -> Batch:
    procs = await asyncio.to_thread(_start, workers, concurrency)
    try:
        await _batch(db, queue, subjects[:WARM_UP])
        started, ends = await _batch(db, queue, subjects)
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            await asyncio.to_thread(proc.wait, 120)
    latencies = sorted((end - started).total_seconds() for end in ends)
    return Batch(len(ends) / latencies[-1], p95(latencies), statistics.median(latencies))


async def _batch(
    db: Database, queue: App, subjects: list[tuple[str, str]]
) -> tuple[datetime, list[datetime]]:
    started = await _now(db)
    requests = [TurnRequest.new_turn(f"status of {order}?", user) for order, user in subjects]
    jobs = await submit_turns(queue, requests)
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


def _start(workers: int, concurrency: int) -> list[subprocess.Popen[str]]:
    """`workers` worker processes, started together, once each says it is running."""
    command = [sys.executable, "-m", "rolegraph_cli.main", "worker"]
    procs = [
        subprocess.Popen(
            [*command, "--concurrency", str(concurrency)],
            env=dict(os.environ),
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(workers)
    ]
    for proc in procs:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("worker: running"):
            for other in procs:
                other.kill()
            raise SystemExit(f"worker did not start: {line!r}")
    return procs


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:4]]
    asyncio.run(main(*(args + [200, 4, ROUNDS][len(args) :])))
