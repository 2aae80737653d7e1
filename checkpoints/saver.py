"""The checkpoint saver: LangGraph's `AsyncPostgresSaver` without its one-lock ceiling.

`AsyncPostgresSaver` serialises every statement of an instance behind one
`asyncio.Lock` (langgraph#7259), even over a pool, where each statement takes
a connection of its own: a process's checkpoint reads and writes then queue
one at a time whatever the pool size. Over a pool the lock guards nothing (no
shared connection, no pipeline), so it is replaced by a semaphore letting up
to half the pool's connections work at once; the other half stays free for
the nodes' own work (ledger, audit, domain writes), so checkpointing never
starves a node of a connection. This is the workaround langgraph#7269
proposes; the class goes once a release carries the fix.
"""

from __future__ import annotations

import asyncio

import psycopg
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg.rows import DictRow
from psycopg_pool import AsyncConnectionPool


def saver_concurrency(pool_size: int) -> int:
    """How many checkpoint statements may run at once over a pool of `pool_size`."""
    return max(1, pool_size // 2)


class PooledSaver(AsyncPostgresSaver):
    """`AsyncPostgresSaver` over a pool, its statements bounded by a semaphore, not a lock."""

    def __init__(
        self, pool: AsyncConnectionPool[psycopg.AsyncConnection[DictRow]], *, concurrency: int
    ) -> None:
        super().__init__(pool)
        # The base class types `lock` as a Lock but only ever enters it as a context.
        self.lock = asyncio.Semaphore(concurrency)  # type: ignore[assignment]
