"""Advisory locks are held on connections of a pool of their own: taking one is a
checkout, not a new server process, and a connection goes back holding no lock."""

from __future__ import annotations

import psycopg
import pytest
from psycopg.rows import dict_row

from checkpoints.customer_lock import customer_lock
from checkpoints.database import DatabaseTarget
from checkpoints.errors import InvalidArgument
from checkpoints.opening import Database
from checkpoints.pool import LockingPool, open_pool
from checkpoints.threads import lock_session, thread_lock

HELD = "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"


async def test_locks_one_after_another_open_no_new_server_connection(db: Database) -> None:
    assert isinstance(db.pool, LockingPool) and db.pool.locks is not None
    async with thread_lock(db.pool, "thr-lock-pool-a"):
        pass
    opened = db.pool.locks.get_stats().get("connections_num", 0)
    for n in range(10):
        async with thread_lock(db.pool, f"thr-lock-pool-a{n}"):
            pass
        async with customer_lock(db.pool, "memory", "lock_pool_user"):
            pass
    assert db.pool.locks.get_stats().get("connections_num", 0) == opened


async def test_a_connection_goes_back_holding_no_lock(db: Database) -> None:
    async with thread_lock(db.pool, "thr-lock-pool-b"), lock_session(db.pool) as other:
        # Held, so another session cannot take it…
        row = await (
            await other.execute("SELECT pg_try_advisory_lock(hashtext('thr-lock-pool-b')) AS ok")
        ).fetchone()
        assert row is not None and row["ok"] is False
    async with lock_session(db.pool) as conn:
        row = await (await conn.execute(HELD)).fetchone()
        assert row is not None and row["n"] == 0
    # …and released at the end of the block, for this process and any other.
    async with thread_lock(db.pool, "thr-lock-pool-b"):
        pass


async def test_a_lock_taken_and_left_unreleased_is_released_on_return(db: Database) -> None:
    async with lock_session(db.pool) as conn:
        await conn.execute("SELECT pg_advisory_lock(hashtext('left-behind'))")
    url = db.pool.conninfo
    assert isinstance(url, str)
    async with await psycopg.AsyncConnection.connect(
        url, autocommit=True, row_factory=dict_row
    ) as c:
        row = await (
            await c.execute("SELECT pg_try_advisory_lock(hashtext('left-behind')) AS ok")
        ).fetchone()
        assert row is not None and row["ok"] is True


async def test_a_refused_thread_lock_holds_nothing(db: Database) -> None:
    async with thread_lock(db.pool, "thr-lock-pool-c"):
        with pytest.raises(InvalidArgument, match="being run by another process"):
            async with thread_lock(db.pool, "thr-lock-pool-c"):
                pass


async def test_closing_the_pool_closes_its_lock_pool(db: Database) -> None:
    url = db.pool.conninfo
    assert isinstance(url, str)
    pool = await open_pool(DatabaseTarget(kind="external", url=url, location="test"))
    async with thread_lock(pool, "thr-lock-pool-d"):
        pass
    assert isinstance(pool, LockingPool) and pool.locks is not None
    await pool.close()
    assert pool.closed and pool.locks.closed
