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

Its writes (a checkpoint with its blobs, a task's pending writes) are one
statement each (`checkpoints.saver_statements`): the rows go as arrays, so a
save is one round trip, not one statement per channel. Each commits as its
own transaction, with `synchronous_commit` off for that transaction only: the commit returns once the server has it, without waiting for the
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
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    get_serializable_checkpoint_metadata,
)
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.checkpoint.serde.types import _DeltaSnapshot
from psycopg import AsyncCursor
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from checkpoints.saver_statements import checkpoint_sql, last_per_idx, writes_sql

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

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Save a checkpoint and its new blobs, as the base class does, in one statement.

        Values are serialised in place, not in a worker thread: a support turn's
        channels are small, and the hand-off to a thread cost more than the dump."""
        configurable = config["configurable"]
        thread_id, ns = configurable["thread_id"], configurable["checkpoint_ns"]
        inline, blob_values = _split_values(checkpoint["channel_values"])
        versions = {k: v for k, v in new_versions.items() if k in blob_values}
        blobs = self._dump_blobs(thread_id, ns, blob_values, versions)
        params = {
            "thread_id": thread_id,
            "checkpoint_ns": ns,
            "checkpoint_id": checkpoint["id"],
            "parent_id": configurable.get("checkpoint_id"),
            "checkpoint": Jsonb({**checkpoint, "channel_values": inline}),
            "metadata": Jsonb(get_serializable_checkpoint_metadata(config, metadata)),
            **_columns(blobs, channels=2, versions=3, types=4, blobs=5),
        }
        async with self._statement() as cur:
            await cur.execute(checkpoint_sql(durable=self._durable_commits), params)
        checkpoint_config = {"thread_id": thread_id, "checkpoint_ns": ns}
        return {"configurable": {**checkpoint_config, "checkpoint_id": checkpoint["id"]}}

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Save a task's writes, with the base class's rows and conflict rule, in one statement."""
        configurable = config["configurable"]
        upsert = all(channel in WRITES_IDX_MAP for channel, _ in writes)
        ids = (configurable["thread_id"], configurable["checkpoint_ns"])
        rows = self._dump_writes(*ids, configurable["checkpoint_id"], task_id, task_path, writes)
        if upsert:
            rows = last_per_idx(rows, idx_at=5)
        params = {
            "thread_id": ids[0],
            "checkpoint_ns": ids[1],
            "checkpoint_id": configurable["checkpoint_id"],
            "task_id": task_id,
            "task_path": task_path,
            **_columns(rows, idx=5, channels=6, types=7, blobs=8),
        }
        async with self._statement() as cur:
            await cur.execute(writes_sql(durable=self._durable_commits, upsert=upsert), params)

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[AsyncCursor[DictRow]]:
        """A cursor for one statement, its own transaction (the connections autocommit)."""
        async with (
            self.lock,
            self._pool.connection() as conn,
            conn.cursor(binary=True, row_factory=dict_row) as cur,
        ):
            yield cur


def _split_values(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The channel values kept inline in the checkpoint row (primitives, and a marker for a
    delta snapshot) and those stored as blobs: the base class's rule."""
    inline: dict[str, Any] = {}
    blobs: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, _DeltaSnapshot):
            blobs[key], inline[key] = value, True
        elif value is None or isinstance(value, (str, int, float, bool)):
            inline[key] = value
        else:
            blobs[key] = value
    return inline, blobs


def _columns(rows: Sequence[Sequence[Any]], **at: int) -> dict[str, list[Any]]:
    """Column arrays of `rows`: each name in `at` gets the values at its position."""
    return {name: [row[i] for row in rows] for name, i in at.items()}


@asynccontextmanager
async def _nothing() -> AsyncIterator[None]:
    yield
