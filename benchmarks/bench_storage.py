"""Checkpoint bytes per turn: what one conversation turn adds to the checkpoint
tables (rows of `checkpoints`, `checkpoint_blobs` and `checkpoint_writes`, as
Postgres stores them), for a thread's first turn and for a later one.

    .venv/bin/python -m benchmarks.bench_storage [TURNS]
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
import sys

from benchmarks.subjects import orders
from benchmarks.table import Row, render
from checkpoints.opening import Database, open_database
from graphs.api import compile_support, run_request
from nodes.bootstrap import build_support_context

_BYTES = """
SELECT (SELECT coalesce(sum(pg_column_size(c.*)), 0) FROM checkpoints c WHERE thread_id = %(t)s)
     + (SELECT coalesce(sum(pg_column_size(b.*)), 0) FROM checkpoint_blobs b WHERE thread_id = %(t)s)
     + (SELECT coalesce(sum(pg_column_size(w.*)), 0) FROM checkpoint_writes w WHERE thread_id = %(t)s)
       AS bytes
"""


async def measure(db: Database, turns: int) -> list[Row]:
    ((order_id, user_id),) = await orders(db, 1)
    ctx = await build_support_context(db.pool, env={})
    graph = compile_support(ctx, db.checkpointer, db.store)
    text, user = f"status of {order_id}?", user_id
    first = await run_request(graph, ctx, text=text, user_id=user)
    sizes = [await _bytes(db, first.thread_id)]
    for _ in range(turns - 1):
        await run_request(graph, ctx, text=text, user_id=user, thread_id=first.thread_id)
        sizes.append(await _bytes(db, first.thread_id))
    later = [b - a for a, b in itertools.pairwise(sizes)]
    note = f"a later turn adds {statistics.median(later) / 1024:.1f} KB (median of {len(later)})"
    return [
        Row(
            "checkpoint bytes of a read turn (first on its thread)",
            f"{sizes[0] / 1024:.1f} KB",
            note=note,
        )
    ]


async def _bytes(db: Database, thread_id: str) -> int:
    async with db.pool.connection() as conn:
        cur = await conn.execute(_BYTES, {"t": thread_id})
        row = await cur.fetchone()
    assert row is not None
    return int(row["bytes"])


async def main(turns: int) -> None:
    async with open_database() as db:
        print(render(await measure(db, turns)))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 6))
