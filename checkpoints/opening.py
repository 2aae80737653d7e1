"""Opening the database: pool, migrations, saver and store, in one place.

`open_database` is the one entry point; the CLI, the graph entrypoint and the
tests all go through it so a connection is configured the same way
everywhere.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

import psycopg
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.store.postgres.aio import AsyncPostgresStore
from psycopg.rows import DictRow
from psycopg_pool import AsyncConnectionPool

from checkpoints.database import DatabaseTarget, resolve_database
from checkpoints.migrations import MigrationSource, migrate
from checkpoints.pool import open_pool
from checkpoints.saver import PooledSaver, saver_concurrency
from checkpoints.settings import DatabaseSettings, PoolSettings, durable_checkpoints

Pool = AsyncConnectionPool[psycopg.AsyncConnection[DictRow]]


@dataclass(frozen=True)
class Database:
    """An open database: the pool and LangGraph's saver and store over it."""

    target: DatabaseTarget
    pool: Pool
    checkpointer: AsyncPostgresSaver
    store: AsyncPostgresStore


@asynccontextmanager
async def open_database(
    settings: DatabaseSettings | None = None,
    *,
    target: DatabaseTarget | None = None,
    migrations: Sequence[MigrationSource] = (),
) -> AsyncIterator[Database]:
    """Resolve, connect, migrate and set up the saver and store once.

    The harness's tables are always migrated; `migrations` adds a domain's.

    Without `settings`, the environment says where the database is and how
    large the pool may grow (`ROLEGRAPH_POOL_SIZE`, `ROLEGRAPH_POOL_TIMEOUT`).
    """
    if target is None:
        settings = settings or DatabaseSettings.from_env()
        target = resolve_database(settings)
    # With only a target (the Studio factory resolves it off the event loop),
    # the pool settings still come from the environment; nothing here blocks.
    pool_settings = settings.pool if settings else PoolSettings.from_env(os.environ)
    durable = settings.durable_checkpoints if settings else durable_checkpoints(os.environ)
    pool = await open_pool(target, settings=pool_settings)
    try:
        async with pool.connection() as conn:
            await migrate(conn, migrations)
        # The saver and store accept a pool; both setup() calls are idempotent
        # migrations of their own tables.
        checkpointer = PooledSaver(
            pool, concurrency=saver_concurrency(pool_settings.size), durable_commits=durable
        )
        store = AsyncPostgresStore(pool)
        await checkpointer.setup()
        await store.setup()
        yield Database(target=target, pool=pool, checkpointer=checkpointer, store=store)
    finally:
        await pool.close()
