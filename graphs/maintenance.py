"""The periodic work of a deployment, as one pass each: outbox delivery and retention.

`rolegraph worker` runs them as periodic jobs of the queue (graphs.worker_tasks);
`rolegraph notify deliver` and `rolegraph threads prune` remain the by-hand ways.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from checkpoints.errors import ConfigurationError, RolegraphError
from checkpoints.jobs import prune_turn_jobs
from checkpoints.opening import Database
from checkpoints.retention import CHECKPOINT_TABLES, parse_age, prune_threads
from checkpoints.row_retention import RetentionSettings, prune_rows, vacuum
from skills.outbox.settings import DeliverySettings
from skills.outbox.worker import DeliveryCounts, deliver_due

log = logging.getLogger(__name__)
THREADS_ENV = "ROLEGRAPH_RETAIN_THREADS"
TURN_JOB_DAYS = 7
"""Finished turn jobs (and their results) are kept a week: long enough to look one up."""


@dataclass(frozen=True)
class MaintenanceSettings:
    """What the periodic jobs do, read once from the environment by the worker."""

    delivery: DeliverySettings
    retention: RetentionSettings
    threads_older_than: timedelta | None = None
    """`ROLEGRAPH_RETAIN_THREADS` (e.g. 30d): threads idle that long are deleted, except
    those waiting on a pending approval; unset keeps every thread."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> MaintenanceSettings:
        raw = env.get(THREADS_ENV, "").strip()
        try:
            age = parse_age(raw) if raw else None
        except RolegraphError:
            raise ConfigurationError(
                f"{THREADS_ENV}={raw!r} is not an age; write e.g. 30d, or unset it to keep threads"
            ) from None
        return cls(DeliverySettings.from_env(env), RetentionSettings.from_env(env), age)


async def deliver_outbox(db: Database, settings: MaintenanceSettings) -> DeliveryCounts:
    """One delivery pass; nothing when SMTP_HOST is unset (rows wait in the outbox)."""
    if settings.delivery.smtp_host is None:
        return DeliveryCounts()
    counts = await deliver_due(db.pool, settings.delivery)
    if counts.claimed or counts.recovered:
        log.info("outbox: %s", counts.summary())
    return counts


async def prune_retained(db: Database, settings: MaintenanceSettings) -> dict[str, int]:
    """`rolegraph threads prune`'s work with the configured periods; rows removed per table."""
    async with db.pool.connection() as conn:
        removed = await prune_rows(conn, settings.retention)
        touched = [table for table, n in removed.items() if n]
        if settings.threads_older_than is not None:
            pruned = await prune_threads(
                db.checkpointer, conn, older_than=settings.threads_older_than, keep_latest=False
            )
            removed["threads"] = len(pruned.thread_ids)
            touched += CHECKPOINT_TABLES if pruned.thread_ids else []
        removed["turn_jobs"] = await prune_turn_jobs(conn, TURN_JOB_DAYS)
        await vacuum(conn, touched)
    return removed
