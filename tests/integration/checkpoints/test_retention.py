from __future__ import annotations

import operator
from datetime import UTC, datetime, timedelta
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph

from checkpoints.opening import Database
from checkpoints.retention import list_threads, prune_threads


class _Counter(TypedDict):
    steps: Annotated[list[int], operator.add]


def _graph(db: Database):  # type: ignore[no-untyped-def]
    builder = StateGraph(_Counter)
    builder.add_node("one", lambda s: {"steps": [1]})
    builder.add_node("two", lambda s: {"steps": [2]})
    builder.add_edge(START, "one")
    builder.add_edge("one", "two")
    builder.add_edge("two", END)
    return builder.compile(checkpointer=db.checkpointer)


async def _run_threads(db: Database, *ids: str) -> None:
    graph = _graph(db)
    for thread_id in ids:
        await graph.ainvoke({"steps": []}, {"configurable": {"thread_id": thread_id}})


async def _count(db: Database, thread_id: str) -> int:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM checkpoints WHERE thread_id = %s", (thread_id,)
        )
        row = await cur.fetchone()
    assert row is not None
    return int(row["n"])


async def test_prune_deletes_only_threads_older_than_the_cutoff(db: Database) -> None:
    await _run_threads(db, "old-a", "old-b")
    cutoff_now = datetime.now(UTC) + timedelta(days=8)
    await _run_threads(db, "fresh")
    async with db.pool.connection() as conn:
        # "fresh" is 0 days old at real now; pretend now is 8 days later but
        # ask for 9 days, so nothing qualifies yet.
        report = await prune_threads(
            db.checkpointer, conn, older_than=timedelta(days=9), keep_latest=False, now=cutoff_now
        )
        assert report.thread_ids == ()
        report = await prune_threads(
            db.checkpointer, conn, older_than=timedelta(days=7), keep_latest=False, now=cutoff_now
        )
        remaining = {t.thread_id for t in await list_threads(conn)}
    assert set(report.thread_ids) == {"old-a", "old-b", "fresh"}
    assert remaining.isdisjoint({"old-a", "old-b", "fresh"})
    assert report.checkpoints_after < report.checkpoints_before


async def test_prune_keep_latest_leaves_one_resumable_checkpoint(db: Database) -> None:
    await _run_threads(db, "keeper")
    assert await _count(db, "keeper") > 1
    async with db.pool.connection() as conn:
        await prune_threads(
            db.checkpointer,
            conn,
            older_than=timedelta(days=7),
            keep_latest=True,
            now=datetime.now(UTC) + timedelta(days=30),
        )
    assert await _count(db, "keeper") == 1
    state = await _graph(db).aget_state({"configurable": {"thread_id": "keeper"}})
    assert state.values["steps"] == [1, 2]
