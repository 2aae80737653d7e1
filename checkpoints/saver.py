"""The checkpoint saver: LangGraph's `AsyncPostgresSaver` without its one-lock ceiling.

`AsyncPostgresSaver` serialises every statement of an instance behind one
`asyncio.Lock` (langgraph#7259), even over a pool, where each statement takes
a connection of its own: a process's checkpoint reads and writes then queue
one at a time whatever the pool size. Over a pool the lock guards nothing (no
shared connection, no pipeline), so it is replaced by a semaphore letting up
to half the pool's connections work at once; the other half stays free for
the nodes' own work (ledger, audit, domain writes), so checkpointing never
starves a node of a connection. This is the workaround langgraph#7269
proposes.

Its writes (a checkpoint with its blobs, a task's pending writes) commit as
one transaction each, with `synchronous_commit` off for that transaction
only: the commit returns once the server has it, without waiting for the
disk. A killed rolegraph process loses nothing by it; a crashed or
powered-off *server* may lose the checkpoints of its last fraction of a
second (up to three `wal_writer_delay`s, 0.6 s by default), and LangGraph
then re-runs the node after the last checkpoint it has, which the
idempotency ledger makes safe. Every other commit — domain writes, the
ledger, approvals, the audit, the outbox — stays synchronous, and any of
them flushes the checkpoints written before it too (the WAL is written in
order). `ROLEGRAPH_CHECKPOINT_COMMIT=durable` makes checkpoint commits wait
for the disk as well.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg import AsyncCursor
from psycopg.rows import DictRow, dict_row
from psycopg_pool import AsyncConnectionPool

_FAST_COMMIT = "SET LOCAL synchronous_commit TO off"


def saver_concurrency(pool_size: int) -> int:
    """How many checkpoint statements may run at once over a pool of `pool_size`."""
    return max(1, pool_size // 2)


class PooledSaver(AsyncPostgresSaver):
    """`AsyncPostgresSaver` over a pool, its statements bounded by a semaphore, not a lock."""

    def __init__(
        self,
        pool: AsyncConnectionPool[psycopg.AsyncConnection[DictRow]],
        *,
        concurrency: int,
        durable_commits: bool = False,
    ) -> None:
        super().__init__(pool)
        self._pool = pool
        self._durable_commits = durable_commits
        # The base class types `lock` as a Lock but only ever enters it as a context.
        self.lock = asyncio.Semaphore(concurrency)  # type: ignore[assignment]

    @asynccontextmanager
    async def _cursor(self, *, pipeline: bool = False) -> AsyncIterator[AsyncCursor[DictRow]]:
        """Reads as the base class does; writes (`pipeline=True`) as one transaction each."""
        if not pipeline:
            async with super()._cursor() as cur:
                yield cur
            return
        # The statements are pipelined when libpq can: BEGIN, SET LOCAL, the
        # writes and COMMIT then cost one round trip, as the base class's did.
        async with (
            self.lock,
            self._pool.connection() as conn,
            conn.pipeline() if self.supports_pipeline else _nothing(),
            conn.transaction(),
            conn.cursor(binary=True, row_factory=dict_row) as cur,
        ):
            if not self._durable_commits:
                await cur.execute(_FAST_COMMIT)
            yield cur


@asynccontextmanager
async def _nothing() -> AsyncIterator[None]:
    yield
