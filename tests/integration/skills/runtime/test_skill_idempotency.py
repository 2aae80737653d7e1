"""The idempotency ledger: one side effect per (run, task, skill, args)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from runtime_helpers import audit_rows, counter_rows, request

from checkpoints.opening import Database
from skills.hashing import args_hash, idempotency_key
from skills.runtime import SkillRuntime


async def test_same_key_twice_runs_once_and_replays_the_result(
    runtime: SkillRuntime, db: Database
) -> None:
    first = request("counter_v1", {"label": "twice"})
    second = first.model_copy(update={"audit_id": first.audit_id + "-b"})
    one, two = await runtime.call(first), await runtime.call(second)
    assert await counter_rows(db, "twice") == 1
    assert (one.replayed, two.replayed) == (False, True) and one.payload == two.payload
    [row] = await audit_rows(db, second.audit_id)
    assert row["status"] == "replayed"


async def test_another_task_is_another_effect(runtime: SkillRuntime, db: Database) -> None:
    await runtime.call(request("counter_v1", {"label": "per-task"}, task_id="a"))
    await runtime.call(request("counter_v1", {"label": "per-task"}, task_id="b"))
    assert await counter_rows(db, "per-task") == 2


async def test_concurrent_callers_with_one_key_run_once(
    runtime: SkillRuntime, db: Database
) -> None:
    base = request("counter_v1", {"label": "race"})
    calls = [base.model_copy(update={"audit_id": f"{base.audit_id}-{i}"}) for i in range(2)]
    results = await asyncio.gather(*(runtime.call(c) for c in calls))
    assert await counter_rows(db, "race") == 1
    assert all(r.ok for r in results) and sorted(r.replayed for r in results) == [False, True]


async def test_two_runtimes_share_the_ledger_like_two_processes(
    make_runtime: Callable[..., SkillRuntime], db: Database
) -> None:
    base = request("counter_v1", {"label": "two-procs"})
    runtimes = [make_runtime(), make_runtime()]
    calls = [
        rt.call(base.model_copy(update={"audit_id": f"{base.audit_id}-{i}"}))
        for i, rt in enumerate(runtimes)
    ]
    results = await asyncio.gather(*calls)
    assert await counter_rows(db, "two-procs") == 1 and all(r.ok for r in results)


async def test_read_only_skills_leave_no_ledger_rows(runtime: SkillRuntime, db: Database) -> None:
    req = request("echo_v1", {"text": "hi"})
    await runtime.call(req)
    key = idempotency_key(req.run_id, req.task_id, "echo_v1", args_hash({"text": "hi"}))
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM idempotency_ledger WHERE key = %s", (key,)
        )
        row = await cur.fetchone()
    assert row is not None and row["n"] == 0
