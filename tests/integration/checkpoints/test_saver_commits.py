"""Checkpoint writes commit as one transaction each, without waiting for the disk,
and the setting never leaks to the pool's other users."""

from __future__ import annotations

from collections.abc import AsyncIterator

import psycopg
import pytest
import pytest_asyncio
from psycopg.rows import DictRow
from psycopg_pool import AsyncConnectionPool

from checkpoints.database import DatabaseTarget
from checkpoints.errors import ConfigurationError
from checkpoints.opening import Database
from checkpoints.pool import CONNECTION_KWARGS
from checkpoints.saver import PooledSaver
from checkpoints.settings import DatabaseSettings

Pool = AsyncConnectionPool[psycopg.AsyncConnection[DictRow]]


class Boom(Exception):
    pass


@pytest_asyncio.fixture(loop_scope="module")
async def one_connection(fresh_target: DatabaseTarget, db: Database) -> AsyncIterator[Pool]:
    """A pool of exactly one connection, so every cursor below shares it."""
    pool: Pool = AsyncConnectionPool(
        fresh_target.url, min_size=1, max_size=1, kwargs=dict(CONNECTION_KWARGS), open=False
    )
    await pool.open(wait=True)
    yield pool
    await pool.close()


async def _setting(saver: PooledSaver, *, pipeline: bool) -> str:
    async with saver._cursor(pipeline=pipeline) as cur:
        await cur.execute("SELECT current_setting('synchronous_commit') AS s")
        row = await cur.fetchone()
    assert row is not None
    return str(row["s"])


async def test_writes_skip_the_disk_wait_and_reads_and_later_users_do_not(
    one_connection: Pool,
) -> None:
    saver = PooledSaver(one_connection, concurrency=1)
    assert await _setting(saver, pipeline=True) == "off"
    assert await _setting(saver, pipeline=False) == "on"
    async with one_connection.connection() as conn:
        row = await (await conn.execute("SHOW synchronous_commit")).fetchone()
    assert row is not None and row["synchronous_commit"] == "on"


async def test_durable_checkpoints_wait_for_the_disk(one_connection: Pool) -> None:
    saver = PooledSaver(one_connection, concurrency=1, durable_commits=True)
    assert await _setting(saver, pipeline=True) == "on"


async def test_a_write_that_fails_leaves_nothing_behind(one_connection: Pool) -> None:
    saver = PooledSaver(one_connection, concurrency=1)
    insert = (
        "INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx,"
        " channel, type, blob) VALUES ('thr-atomic', '', 'c1', 't1', %s, 'x', 'bytes', '')"
    )
    with pytest.raises(Boom):
        async with saver._cursor(pipeline=True) as cur:
            await cur.execute(insert, (0,))
            await cur.execute(insert, (1,))
            raise Boom
    async with one_connection.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM checkpoint_writes WHERE thread_id = 'thr-atomic'"
        )
        row = await cur.fetchone()
    assert row is not None and row["n"] == 0


def test_the_checkpoint_commit_setting_is_read_and_checked() -> None:
    assert DatabaseSettings.from_env({}).durable_checkpoints is False
    durable = {"ROLEGRAPH_CHECKPOINT_COMMIT": "durable"}
    assert DatabaseSettings.from_env(durable).durable_checkpoints is True
    with pytest.raises(ConfigurationError, match=r"ROLEGRAPH_CHECKPOINT_COMMIT='sometimes'.*fast"):
        DatabaseSettings.from_env({"ROLEGRAPH_CHECKPOINT_COMMIT": "sometimes"})
