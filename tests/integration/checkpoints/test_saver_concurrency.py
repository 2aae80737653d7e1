"""The saver lets checkpoint statements of one process run side by side (langgraph#7259)."""

from __future__ import annotations

import asyncio

from checkpoints.opening import Database
from checkpoints.saver import PooledSaver, saver_concurrency

DEADLOCK_GUARD_S = 30.0
"""Only a serialising lock makes the inner statement wait at all; the guard turns that
deadlock into a failure instead of a hung run."""


async def test_a_second_statement_runs_while_the_first_holds_its_cursor(db: Database) -> None:
    saver = db.checkpointer
    assert isinstance(saver, PooledSaver)

    async def inner() -> int:
        async with saver._cursor() as cur:
            await cur.execute("SELECT 2 AS n")
            row = await cur.fetchone()
            return int(row["n"]) if row else 0

    async with saver._cursor() as outer:
        await outer.execute("SELECT 1")
        # With the library's one lock per saver this waits for the outer cursor forever.
        assert await asyncio.wait_for(inner(), DEADLOCK_GUARD_S) == 2


def test_half_the_pool_is_left_to_the_nodes() -> None:
    assert [saver_concurrency(n) for n in (1, 2, 10, 21)] == [1, 1, 5, 10]
