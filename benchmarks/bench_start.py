"""How long a `rolegraph` process takes to start, and what a whole `rolegraph run`
process adds to the request it makes.

- `--help` and `run --help` (which imports a turn's code) against a bare
  interpreter, and beside them the libraries every turn needs (LangGraph and
  what it imports: LangChain core, LangSmith, pydantic; psycopg) imported
  alone, the part of `run --help` rolegraph cannot make lazy;
- a whole `rolegraph run TEXT --user-id U --json` process making one read
  request against the same request made in this process, where everything is
  already loaded (the CLI's own call: a new thread, the local operator, no
  progress lines). Issue 12 asks that the process add at most 1 s.

Each sample starts a fresh process; the kinds alternate (interleaved), one
in-process request after each round, so machine noise falls on all of them
alike. The project's bytecode is compiled first, as an installed package has it
(with PYTHONDONTWRITEBYTECODE set, every process would otherwise compile the
project's source again). Prints medians, min and max.

    .venv/bin/python -m benchmarks.bench_start [SAMPLES]
"""

from __future__ import annotations

import asyncio
import compileall
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from benchmarks.subjects import orders
from benchmarks.table import Row, Spread, ratio, render
from checkpoints.opening import Database, open_database
from graphs.api import compile_support, new_thread_id, run_request
from nodes.bootstrap import build_support_context
from nodes.domain import load_domain
from rolegraph_cli.session import local_operator

CLI = [sys.executable, "-m", "rolegraph_cli.main"]
FLOOR = "python -c pass (the floor)"
LIBRARIES = (
    "import gc; gc.disable(); import langgraph.graph, langgraph.types,"
    " langgraph.checkpoint.postgres.aio, langgraph.store.postgres.aio, psycopg_pool; gc.freeze()"
)
"""What no turn can do without, imported as the CLI imports a command (no collection)."""
STARTS = {
    "rolegraph --help": [*CLI, "--help"],
    "LangGraph, LangChain core, LangSmith, psycopg imported alone": [
        sys.executable,
        "-c",
        LIBRARIES,
    ],
    "rolegraph run --help (imports a turn's code)": [*CLI, "run", "--help"],
}
RUN = "whole `rolegraph run --json` process, one read request"
IN_PROCESS = "same request in-process"
TEXT = "what's the status of my order {order_id}?"
TARGET_MS = 1000.0
"""Issue 12: a whole `run` process adds at most 1 s to the in-process request."""
PROJECT = Path(__file__).resolve().parent.parent
PACKAGES = ("checkpoints", "domains", "graphs", "nodes", "rolegraph_cli", "skills")


async def measure(db: Database, samples: int) -> list[Row]:
    """Rows: `--help` and `run --help` against the floor; a whole `run` process
    against the same request in-process."""
    _compile_bytecode()
    [(order_id, user_id)] = await orders(db, 1)
    text = TEXT.format(order_id=order_id)
    env = {**os.environ, "DATABASE_URL": db.target.url}
    commands = {
        FLOOR: [sys.executable, "-c", "pass"],
        **STARTS,
        RUN: [*CLI, "run", text, "--user-id", user_id, "--json"],
    }
    request = await _in_process_request(db, text, user_id)
    times: dict[str, list[float]] = {kind: [] for kind in (*commands, IN_PROCESS)}
    for n in range(samples + 1):
        for kind, command in commands.items():
            took = _timed_process(command, env, completed=kind == RUN)
            if n:  # the first round warms the page cache and the server
                times[kind].append(took)
        start = time.perf_counter()
        await request()
        if n:
            times[IN_PROCESS].append((time.perf_counter() - start) * 1000)
    return _rows(times)


def _rows(times: dict[str, list[float]]) -> list[Row]:
    floor = Spread.of(times[FLOOR])
    rows = []
    for kind in STARTS:
        took = Spread.of(times[kind])
        rows.append(
            Row(
                f"process start: {kind}",
                took.ms(),
                f"{floor.ms()} {FLOOR}",
                ratio(took.median, floor.median),
                f"{took.range_ms()}; {took.median - floor.median:.0f} ms over the floor",
            )
        )
    run, request = Spread.of(times[RUN]), Spread.of(times[IN_PROCESS])
    # Each round's process against the request of the same round.
    added = statistics.median(p - r for p, r in zip(times[RUN], times[IN_PROCESS], strict=True))
    verdict = "met" if added <= TARGET_MS else "not met"
    rows.append(
        Row(
            f"process start: {RUN}",
            run.ms(),
            f"{request.ms()} {IN_PROCESS}",
            ratio(run.median, request.median),
            f"{run.range_ms()}; adds {added:.0f} ms (target <= {TARGET_MS:.0f}: {verdict})",
        )
    )
    return rows


async def _in_process_request(
    db: Database, text: str, user_id: str
) -> Callable[[], Awaitable[None]]:
    """The request `rolegraph run TEXT --user-id U --json` makes, in this process."""
    ctx = await build_support_context(db.pool)
    graph = compile_support(ctx, db.checkpointer, db.store)
    operator = local_operator(os.environ)

    async def request() -> None:
        report = await run_request(
            graph, ctx, text=text, user_id=user_id, thread_id=new_thread_id(), actor=operator
        )
        assert report.status == "completed", report.status

    return request


def _timed_process(command: Sequence[str], env: dict[str, str], *, completed: bool) -> float:
    """Milliseconds from start to exit of `command`; a `run` must complete its request."""
    start = time.perf_counter()
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    took = (time.perf_counter() - start) * 1000
    if completed:
        status = json.loads(done.stdout.splitlines()[-1])["status"]
        assert status == "completed", status
    return took


def _compile_bytecode() -> None:
    for package in PACKAGES:
        compileall.compile_dir(PROJECT / package, quiet=1)


async def main(samples: int) -> None:
    async with open_database(migrations=(load_domain().migrations,)) as db:
        print(render(await measure(db, samples)))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 30))
