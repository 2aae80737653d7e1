"""Thread locks: one writer per thread across processes, without holding a pooled connection.

The lock is a Postgres session advisory lock on a connection of its own,
outside the pool: a run that holds it for minutes (waiting on a model, say)
never starves the pool, and a process that dies releases it with its
connection, which is what tells a crashed thread from a running one.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from psycopg.rows import DictRow, dict_row

from checkpoints.errors import InvalidArgument
from checkpoints.opening import Pool

CONNECT_TIMEOUT_SECONDS = 10
MAX_LOCK_CONNECTIONS = 32
"""Lock connections one process holds at once per kind (thread locks, customer locks):
more turns wait for a slot instead of pushing the server past its connection limit
(the embedded server's is 100, shared with the pool and other processes)."""
_SLOTS: weakref.WeakKeyDictionary[Pool, dict[str, asyncio.Semaphore]] = weakref.WeakKeyDictionary()


def lock_slots(pool: Pool, kind: str) -> asyncio.Semaphore:
    """The semaphore bounding `kind` lock connections opened for `pool` in this process."""
    per_kind = _SLOTS.setdefault(pool, {})
    return per_kind.setdefault(kind, asyncio.Semaphore(MAX_LOCK_CONNECTIONS))


async def lock_connection(pool: Pool) -> psycopg.AsyncConnection[DictRow]:
    """A connection of its own for a session advisory lock, to the pool's database
    but outside the pool, so a long-held lock never starves it."""
    if not isinstance(pool.conninfo, str):
        raise TypeError("advisory locks need a pool opened from a URL (checkpoints.pool.open_pool)")
    return await psycopg.AsyncConnection.connect(
        pool.conninfo,
        autocommit=True,
        row_factory=dict_row,
        prepare_threshold=None,
        connect_timeout=CONNECT_TIMEOUT_SECONDS,
    )


@asynccontextmanager
async def thread_lock(pool: Pool, thread_id: str) -> AsyncIterator[None]:
    """Hold `thread_id`'s lock for the block, or refuse at once if another process has it."""
    async with lock_slots(pool, "thread"), _thread_lock(pool, thread_id):
        yield


@asynccontextmanager
async def _thread_lock(pool: Pool, thread_id: str) -> AsyncIterator[None]:
    conn = await lock_connection(pool)
    held = False
    try:
        cur = await conn.execute("SELECT pg_try_advisory_lock(hashtext(%s)) AS ok", (thread_id,))
        row = await cur.fetchone()
        held = bool(row and row["ok"])
        if not held:
            raise InvalidArgument(
                f"thread {thread_id!r} is being run by another process; try again when it stops"
            )
        yield
    finally:
        # Closing the connection releases the lock too, but only once the server
        # has ended the session; unlocking first lets the next caller in at once.
        if held and not conn.closed:
            with contextlib.suppress(psycopg.Error):
                await conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (thread_id,))
        await conn.close()


async def is_running(pool: Pool, thread_id: str) -> bool:
    """Whether some live process holds `thread_id`'s lock right now."""
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT pg_try_advisory_lock(hashtext(%s)) AS free", (thread_id,))
        row = await cur.fetchone()
        if row and row["free"]:
            await conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (thread_id,))
            return False
        return True
