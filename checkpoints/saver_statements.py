"""The saver's writes as one SQL statement each (`checkpoints.saver`).

LangGraph's `AsyncPostgresSaver` writes a checkpoint as a pipelined
transaction of one INSERT per blob plus the checkpoint row, and a task's
writes as one INSERT per write: a dozen statements, each a parse, bind and
result on both sides. Here the rows travel as arrays, unnested by the server,
so a save is one statement in its own implicit transaction: atomic as before,
one round trip, and no pipeline to drive. The rows and their conflict rules
are the library's (`langgraph.checkpoint.postgres.base`).

`set_config(..., true)` applies to that one transaction only, and the
commit reads `synchronous_commit` before the transaction's settings are
reset, so a fast statement commits without waiting for the disk and leaves
the connection as it found it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

R = TypeVar("R", bound=Sequence[object])

_FAST = "fast AS (SELECT set_config('synchronous_commit', 'off', true)),"
_DURABLE = "fast AS (SELECT 1),"

_CHECKPOINT = """
WITH {commit}
blobs AS (
    INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
    SELECT %(thread_id)s, %(checkpoint_ns)s, b.channel, b.version, b.type, b.blob
    FROM unnest(%(channels)s::text[], %(versions)s::text[], %(types)s::text[],
                %(blobs)s::bytea[]) AS b(channel, version, type, blob)
    ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING
)
INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id,
                         checkpoint, metadata)
SELECT %(thread_id)s, %(checkpoint_ns)s, %(checkpoint_id)s, %(parent_id)s::text,
       %(checkpoint)s, %(metadata)s
FROM fast
ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id)
DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata
"""

_WRITES = """
WITH {commit}
rows AS (
    SELECT w.* FROM fast, unnest(%(idx)s::int[], %(channels)s::text[], %(types)s::text[],
                                 %(blobs)s::bytea[]) AS w(idx, channel, type, blob)
)
INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path,
                               idx, channel, type, blob)
SELECT %(thread_id)s, %(checkpoint_ns)s, %(checkpoint_id)s, %(task_id)s, %(task_path)s,
       rows.idx, rows.channel, rows.type, rows.blob
FROM rows
ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) {on_conflict}
"""
_UPSERT = "DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob"


def checkpoint_sql(*, durable: bool) -> str:
    """Save a checkpoint row with its blobs (none when the arrays are empty)."""
    return _CHECKPOINT.format(commit=_DURABLE if durable else _FAST)


def writes_sql(*, durable: bool, upsert: bool) -> str:
    """Save a task's writes; `upsert` replaces rows already saved (the library's
    rule for writes that all go to its special channels: errors, interrupts, resumes)."""
    on_conflict = _UPSERT if upsert else "DO NOTHING"
    return _WRITES.format(commit=_DURABLE if durable else _FAST, on_conflict=on_conflict)


def last_per_idx(rows: list[R], idx_at: int) -> list[R]:
    """`rows` with one row per index, the last: what row-by-row upserts left behind.
    (One statement may not update a row twice.)"""
    kept: dict[object, R] = {}
    for row in rows:
        kept.pop(row[idx_at], None)
        kept[row[idx_at]] = row
    return list(kept.values())
