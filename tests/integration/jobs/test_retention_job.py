"""The retention pass the worker runs hourly: `threads prune`'s work plus old turn jobs."""

from __future__ import annotations

from procrastinate import App

from graphs.maintenance import MaintenanceSettings, prune_retained
from tests.integration.jobs.workers import fetch_all
from tests.support_fixtures import Support


async def test_the_retention_pass_prunes_old_turn_jobs_only(support: Support, queue: App) -> None:
    async with support.db.pool.connection() as conn:
        await conn.execute(
            "INSERT INTO rolegraph_turn_jobs (job_id, thread_id, status_before, finished_at)"
            " VALUES (-1, 'thr-old', 'new', now() - interval '8 days'),"
            " (-2, 'thr-recent', 'new', now() - interval '1 day'),"
            " (-3, 'thr-running', 'new', NULL)"
        )
    removed = await prune_retained(support.db, MaintenanceSettings.from_env({}))
    assert removed["turn_jobs"] == 1 and "threads" not in removed
    left = await fetch_all(
        support.db, "SELECT job_id FROM rolegraph_turn_jobs WHERE job_id < 0 ORDER BY job_id"
    )
    assert [r["job_id"] for r in left] == [-3, -2]
