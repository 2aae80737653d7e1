"""Waiting for turn jobs: only the announced jobs are read, and a lost announcement
is made up for by the fallback poll. No worker runs here: the outcomes are written
the way a worker writes them (`begin_attempt`, `record_outcome`)."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from procrastinate import App

from checkpoints import jobs
from checkpoints.jobs import DONE_CHANNEL, begin_attempt, record_outcome, wait_outcomes
from tests.support_fixtures import Support


@pytest.fixture(autouse=True)
def _schema(queue: App) -> None:
    """Opening the queue made its tables."""


# Job ids of their own, far from the queue's sequence, one fresh block per test.
_IDS = itertools.count(9_100_000_000, 100)


def _block() -> list[int]:
    start = next(_IDS)
    return list(range(start, start + 3))


async def _finish(support: Support, job_id: int, answer: str, *, announce: bool = True) -> None:
    await begin_attempt(support.db.pool, job_id, f"t-{job_id}", None, "new")
    report = {"answer": answer}
    if announce:
        await record_outcome(support.db.pool, job_id, report=report)
        return
    async with support.db.pool.connection() as conn:  # as if the NOTIFY were lost
        await conn.execute(
            "UPDATE rolegraph_turn_jobs SET finished_at = now(), report = %s::jsonb,"
            " progress = '[]'::jsonb, exit_code = 0 WHERE job_id = %s",
            (f'{{"answer": "{answer}"}}', job_id),
        )


async def test_waiting_for_some_jobs_returns_those_as_they_finish(
    support: Support, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "_FALLBACK_POLL_S", 60.0)
    asked: list[set[int]] = []
    finished = jobs._finished

    async def recording(conn: Any, job_ids: set[int]) -> dict[int, jobs.TurnOutcome]:
        asked.append(set(job_ids))
        return await finished(conn, job_ids)

    monkeypatch.setattr(jobs, "_finished", recording)
    first, second, other = _block()
    waiting = asyncio.create_task(wait_outcomes(support.db.pool, [first, second], timeout_s=30))
    await asyncio.sleep(0.2)  # the waiter is listening
    await _finish(support, other, "not waited for")
    await _finish(support, second, "two")
    await _finish(support, first, "one")
    found = await waiting
    assert sorted(found) == [first, second]
    assert found[first].report == {"answer": "one"}
    assert found[second].report == {"answer": "two"}
    # After the first look, each look reads only jobs announced since, never the others.
    assert asked[0] == {first, second}
    assert all(len(ids) <= 1 for ids in asked[1:]), asked


async def test_an_outcome_whose_announcement_was_lost_is_found_by_the_poll(
    support: Support, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "_FALLBACK_POLL_S", 0.2)
    lost, announced, _ = _block()
    waiting = asyncio.create_task(wait_outcomes(support.db.pool, [lost, announced], timeout_s=30))
    await asyncio.sleep(0.2)
    await _finish(support, lost, "silent", announce=False)
    await _finish(support, announced, "loud")
    found = await waiting
    assert found[lost].report == {"answer": "silent"}
    assert found[announced].report == {"answer": "loud"}


async def test_an_unreadable_announcement_checks_every_job_left(
    support: Support, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "_FALLBACK_POLL_S", 60.0)
    job_id, _, _ = _block()
    waiting = asyncio.create_task(wait_outcomes(support.db.pool, [job_id], timeout_s=30))
    await asyncio.sleep(0.2)
    await _finish(support, job_id, "quiet", announce=False)
    async with support.db.pool.connection() as conn:
        await conn.execute("SELECT pg_notify(%s, 'not a job id')", (DONE_CHANNEL,))
    # Long before the fallback poll: the odd announcement made the waiter look.
    found = await asyncio.wait_for(waiting, timeout=30)
    assert found[job_id].report == {"answer": "quiet"}


async def test_a_job_not_finished_in_time_is_left_out(support: Support) -> None:
    job_id, _, _ = _block()
    assert await wait_outcomes(support.db.pool, [job_id], timeout_s=0.3) == {}
