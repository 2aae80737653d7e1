"""The saver's one-statement writes keep LangGraph's checkpointer contract: the
library's own conformance suite for the capabilities they touch, and the commit
setting stays inside each write's transaction."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.conformance.spec.test_get_tuple import run_get_tuple_tests
from langgraph.checkpoint.conformance.spec.test_list import run_list_tests
from langgraph.checkpoint.conformance.spec.test_put import run_put_tests
from langgraph.checkpoint.conformance.spec.test_put_writes import run_put_writes_tests

from checkpoints.opening import Database
from checkpoints.saver import PooledSaver
from checkpoints.saver_statements import last_per_idx

Suite = Callable[[BaseCheckpointSaver], Awaitable[tuple[int, int, list[str]]]]


@pytest.mark.parametrize(
    "suite", [run_put_tests, run_put_writes_tests, run_get_tuple_tests, run_list_tests]
)
@pytest.mark.parametrize("durable", [False, True])
async def test_the_library_conformance_suite_passes(
    db: Database, suite: Suite, durable: bool
) -> None:
    saver = PooledSaver(db.pool, concurrency=2, durable_commits=durable)
    passed, failed, failures = await suite(saver)
    assert failed == 0, failures
    assert passed > 0


async def test_a_fast_write_leaves_its_connection_committing_durably(db: Database) -> None:
    saver = PooledSaver(db.pool, concurrency=1)
    config = {"configurable": {"thread_id": "thr-fast-commit", "checkpoint_ns": ""}}
    async with db.pool.connection() as conn:
        # The pool hands its connections out in turn; a pool of one would be surer,
        # but every connection must read "on" afterwards either way.
        await saver.aput_writes(
            {"configurable": {**config["configurable"], "checkpoint_id": "c1"}},
            [("x", 1)],
            "t1",
        )
        row = await (await conn.execute("SHOW synchronous_commit")).fetchone()
    assert row is not None and row["synchronous_commit"] == "on"


async def test_the_commit_setting_holds_for_its_statement_only(db: Database) -> None:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "WITH fast AS (SELECT set_config('synchronous_commit', 'off', true))"
            " SELECT current_setting('synchronous_commit') AS s FROM fast"
        )
        inside = await cur.fetchone()
        after = await (await conn.execute("SHOW synchronous_commit")).fetchone()
    assert inside is not None and inside["s"] == "off"
    assert after is not None and after["synchronous_commit"] == "on"


def test_an_upsert_keeps_the_last_row_of_each_index() -> None:
    rows = [("a", -3, 1), ("b", -4, 2), ("c", -3, 3)]
    assert last_per_idx(rows, idx_at=1) == [("b", -4, 2), ("c", -3, 3)]
