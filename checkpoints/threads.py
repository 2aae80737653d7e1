"""Thread locks: one writer per thread across processes, without holding a connection
of the saver's and the store's pool.

The lock is a Postgres session advisory lock on a connection of the lock pool
beside it (`checkpoints.pool.LockingPool`): a run that holds it for minutes
(waiting on a model, say) never starves the main pool, and a process that dies
releases it with its connection, which is what tells a crashed thread from a
running one.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from psycopg.rows import DictRow, dict_row

from checkpoints.errors import InvalidArgument
from checkpoints.opening import Pool
from checkpoints.pool import MAX_LOCK_CONNECTIONS, LockingPool

CONNECT_TIMEOUT_SECONDS = 10
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
async def lock_session(pool: Pool) -> AsyncIterator[psycopg.AsyncConnection[DictRow]]:
    """A connection to hold session advisory locks on for the block: a checkout from
    the pool's lock pool (`checkpoints.pool.LockingPool`), or, for a pool without one,
    a connection opened for the block. Every lock taken on it is released at the end
    of the block: a pooled connection goes back holding none."""
    locks = pool.locks if isinstance(pool, LockingPool) else None
    if locks is not None:
        async with locks.connection() as conn:
            try:
                yield conn
            finally:
                await _unlock_all(conn)
        return
    conn = await lock_connection(pool)
    try:
        yield conn
    finally:
        await conn.close()  # the session ends, and its locks with it


async def _unlock_all(conn: psycopg.AsyncConnection[DictRow]) -> None:
    """Release every advisory lock `conn` holds, at once, so the next holder need not
    wait; a connection that cannot is closed, which ends its session and its locks."""
    if conn.closed:
        return
    try:
        await conn.execute("SELECT pg_advisory_unlock_all()")
    except psycopg.Error:
        await conn.close()


@asynccontextmanager
async def thread_lock(pool: Pool, thread_id: str) -> AsyncIterator[None]:
    """Hold `thread_id`'s lock for the block, or refuse at once if another process has it."""
    async with lock_slots(pool, "thread"), _thread_lock(pool, thread_id):
        yield


@asynccontextmanager
async def _thread_lock(pool: Pool, thread_id: str) -> AsyncIterator[None]:
    async with lock_session(pool) as conn:
        cur = await conn.execute("SELECT pg_try_advisory_lock(hashtext(%s)) AS ok", (thread_id,))
        row = await cur.fetchone()
        if not (row and row["ok"]):
            raise InvalidArgument(
                f"thread {thread_id!r} is being run by another process; try again when it stops"
            )
        yield  # lock_session releases it


async def is_running(pool: Pool, thread_id: str) -> bool:
    """Whether some live process holds `thread_id`'s lock right now."""
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT pg_try_advisory_lock(hashtext(%s)) AS free", (thread_id,))
        row = await cur.fetchone()
        if row and row["free"]:
            await conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (thread_id,))
            return False
        return True
