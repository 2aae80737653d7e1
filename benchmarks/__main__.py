"""`make bench`: every measure in one run, printed as one table.

Each measure runs against its baseline in the same process and the same
database, interleaved, with medians and min/max (see each module):

- bench_skill_chain: the middleware chain against a direct executor call;
- bench_request: a read request against LangGraph's prebuilt agent making the
  same tool calls, write transactions per request (counted) and the commit floor;
- bench_concurrency: 1/10/50/100 concurrent conversations in one process;
- bench_storage: checkpoint bytes per turn;
- bench_workers: 1, 2 and 4 worker processes on the job queue, each running one
  turn at a time and then four;
- bench_tokens: a role agent's prompt tokens over a 20-turn conversation against a
  naive agent's (every doc, the whole history), and the share a prefix cache reuses;
- bench_start: process start against a bare interpreter, and a whole `rolegraph run`
  process against the same request in-process.

    .venv/bin/python -m benchmarks [SAMPLES]     # default 30 samples per side
"""

from __future__ import annotations

import asyncio
import sys

from benchmarks import (
    bench_concurrency,
    bench_request,
    bench_skill_chain,
    bench_start,
    bench_storage,
    bench_tokens,
    bench_workers,
)
from benchmarks.table import Row, render, where_and_when
from checkpoints.opening import open_database
from nodes.domain import load_domain

WORKER_LOAD = 200
"""Turns per measured batch: about 5 s of one worker's work, so the batch's start and its
last straggler weigh little beside its steady state (at 60 turns, 2 workers' rates
spread over a third of their median)."""
# One turn at a time per worker shows how processes scale; four, how far one process goes.
WORKER_CONCURRENCY = (1, 4)


async def measure(samples: int) -> list[Row]:
    rows: list[Row] = []
    async with open_database(migrations=(load_domain().migrations,)) as db:
        for name, step in (
            ("middleware chain", bench_skill_chain.measure(db, samples * 10)),
            ("request vs prebuilt agent", bench_request.measure(db, samples)),
            ("concurrency", bench_concurrency.measure(db, max(3, samples // 6))),
            ("checkpoint bytes", bench_storage.measure(db, 6)),
            ("prompt tokens", bench_tokens.measure(db)),
            *(
                ("workers", bench_workers.measure(db, WORKER_LOAD, concurrency))
                for concurrency in WORKER_CONCURRENCY
            ),
        ):
            print(f"measuring: {name} ...", file=sys.stderr, flush=True)
            rows += await step
        print("measuring: process start ...", file=sys.stderr, flush=True)
        rows += await bench_start.measure(db, samples)
    return rows


def main(samples: int) -> None:
    rows = asyncio.run(measure(samples))
    print(render(rows))
    print(f"\nMeasured {where_and_when()}; {samples} samples per side unless noted.")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
