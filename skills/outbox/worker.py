"""The delivery worker: claims due outbox rows and delivers each one once.

`deliver_due` is one pass (settle expired claims, claim a batch, attempt
each row); `run_worker` repeats it until told to stop; the CLI
(`rolegraph notify deliver [--loop]`), the demo and the served graph
(`start_background_worker`) all run the same code. Any number of workers may
run at once, in one process or many: claims are disjoint (SKIP LOCKED) and
every update is fenced on the claiming worker's id.

A failed attempt is retried after an exponential, jittered backoff until
`max_attempts`; an attempt whose outcome is unknown (lost after DATA) is
never retried by a worker: the row waits, claimed, for an operator. E-mail
rows go over SMTP, webhook rows (`skills.outbox.webhook`) as an HTTP POST;
a worker claims only the channels its settings can deliver.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import uuid
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from checkpoints import outbox
from checkpoints.errors import ConfigurationError
from checkpoints.faults import DATABASE_ERROR
from checkpoints.opening import Pool
from checkpoints.outbox import Notification
from skills.faults import crash_point
from skills.outbox.settings import DeliverySettings
from skills.outbox.smtp import Attempt, attempt_delivery
from skills.outbox.webhook import attempt_webhook

log = logging.getLogger(__name__)
_NO_SMTP = "SMTP_HOST is unset: set it (and SMTP_PORT) to the server that delivers notifications"


@dataclass(frozen=True)
class DeliveryCounts:
    """What one or more passes did."""

    claimed: int = 0
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    unknown: int = 0
    # `sending` rows of a vanished worker settled (requeued or unknown).
    recovered: int = 0
    # Rows whose claim this worker lost to lease expiry; nothing was sent.
    lost: int = 0

    def __add__(self, other: DeliveryCounts) -> DeliveryCounts:
        return DeliveryCounts(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        )

    def summary(self) -> str:
        """`3 sent, 1 retrying later, 0 failed, 0 unknown` (+ recovered/lost when any)."""
        text = f"{self.sent} sent, {self.retrying} retrying later, {self.failed} failed,"
        text += f" {self.unknown} unknown"
        extra = [f"{n} {name}" for name, n in (("recovered", self.recovered), ("lost", self.lost))]
        return ", ".join([text, *(e for e in extra if not e.startswith("0 "))])


def worker_id() -> str:
    """Unique per worker: host, process and a random suffix."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def backoff_seconds(attempts_made: int, settings: DeliverySettings) -> float:
    """Delay after the `attempts_made`-th failed attempt.

    min(backoff_max, backoff_base * 2**(n-1)), then "equal jitter": uniform
    in its upper half, so workers that failed together do not retry together.
    """
    delay = min(settings.backoff_max, settings.backoff_base * 2 ** max(attempts_made - 1, 0))
    return random.uniform(delay / 2, delay)


async def deliver_due(
    pool: Pool,
    settings: DeliverySettings,
    *,
    worker: str | None = None,
    stop: asyncio.Event | None = None,
) -> DeliveryCounts:
    """One pass: settle expired claims, claim up to a batch of due rows, deliver them.

    Once `stop` is set (or the task is cancelled) the rows not yet begun are
    released, due again at once; the one being sent is finished (or, when
    cancelled, left to its lease).
    """
    if not settings.channels:
        raise ConfigurationError(_NO_SMTP)
    worker = worker or worker_id()
    recovered, rows = await _claim(pool, settings, worker)
    counts = DeliveryCounts(claimed=len(rows), recovered=recovered)
    if rows:
        crash_point("outbox_after_claim")
    begun = 0
    try:
        for row in rows:
            if stop is not None and stop.is_set():
                break
            begun += 1
            counts += await _deliver_row(pool, settings, worker, row)
    finally:
        if begun < len(rows):
            async with pool.connection() as conn:
                await outbox.release(conn, [r.id for r in rows[begun:]], worker)
    return counts


async def run_worker(
    pool: Pool,
    settings: DeliverySettings,
    stop_event: asyncio.Event,
    interval: float | None = None,
    *,
    on_pass: Callable[[DeliveryCounts], None] | None = None,
) -> DeliveryCounts:
    """Deliver until `stop_event` is set; return the totals.

    A full batch is followed at once by the next pass (drain a backlog);
    otherwise the loop waits `interval` seconds or until stopped. A database
    error costs one pass, never the worker.
    """
    if not settings.channels:
        raise ConfigurationError(_NO_SMTP)
    worker, wait = worker_id(), settings.interval if interval is None else interval
    total = DeliveryCounts()
    while not stop_event.is_set():
        counts = await _guarded_pass(pool, settings, worker, stop_event)
        total += counts
        if on_pass is not None and (counts.claimed or counts.recovered):
            on_pass(counts)
        if counts.claimed >= settings.batch_size:
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop_event.wait(), wait)
    return total


def start_background_worker(
    pool: Pool, env: Mapping[str, str]
) -> asyncio.Task[DeliveryCounts] | None:
    """Run the worker as a task on the running loop, beside a server; None when
    neither SMTP_HOST nor ROLEGRAPH_APPROVAL_WEBHOOK is set (rows then wait in
    the outbox). Keep a reference to the task (the loop holds tasks weakly) and
    `cancel()` it to stop: a row it was sending is settled by the next pass once
    its lease ends."""
    settings = DeliverySettings.from_env(env)
    if not settings.channels:
        log.info("outbox worker not started: SMTP_HOST and ROLEGRAPH_APPROVAL_WEBHOOK are unset")
        return None
    return asyncio.get_running_loop().create_task(
        run_worker(pool, settings, asyncio.Event()), name="rolegraph-outbox-worker"
    )


@contextlib.asynccontextmanager
async def background_worker(
    pool: Pool, env: Mapping[str, str]
) -> AsyncIterator[asyncio.Task[DeliveryCounts] | None]:
    """`start_background_worker` for an `AsyncExitStack`: cancelled and awaited on exit."""
    task = start_background_worker(pool, env)
    try:
        yield task
    finally:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def _claim(
    pool: Pool, settings: DeliverySettings, worker: str
) -> tuple[int, list[Notification]]:
    async with pool.connection() as conn:
        recovered = await outbox.recover_expired(conn)
        rows = await outbox.claim_due(
            conn,
            worker=worker,
            limit=settings.batch_size,
            lease_seconds=settings.lease_seconds,
            channels=settings.channels,
        )
    return recovered, rows


async def _guarded_pass(
    pool: Pool, settings: DeliverySettings, worker: str, stop: asyncio.Event
) -> DeliveryCounts:
    try:
        return await deliver_due(pool, settings, worker=worker, stop=stop)
    except DATABASE_ERROR as exc:
        log.warning("outbox worker: %s; next pass in %.1f s", exc, settings.interval)
    except Exception:  # a worker beside a server must outlive one bad pass
        log.exception("outbox worker: a pass failed")
    return DeliveryCounts()


async def _deliver_row(
    pool: Pool, settings: DeliverySettings, worker: str, row: Notification
) -> DeliveryCounts:
    started = False

    async def before_data() -> bool:
        nonlocal started
        async with pool.connection() as conn:
            started = await outbox.mark_data_started(conn, row.id, worker)
        crash_point("outbox_before_data")
        return started

    attempt = attempt_webhook if row.channel == "webhook" else attempt_delivery
    try:
        result = await attempt(row, settings, before_data)
    except Exception as exc:  # a bug must cost one attempt, not loop the row forever
        log.exception("outbox worker: delivering notification %s", row.id)
        result = Attempt("unknown" if started else "retry", f"{type(exc).__name__}: {exc}")
    if result.verdict == "sent":
        crash_point("outbox_after_data")  # accepted by the server, not yet marked sent
    async with pool.connection() as conn:
        return await _record(conn, settings, worker, row, result)


async def _record(
    conn: Any, settings: DeliverySettings, worker: str, row: Notification, result: Attempt
) -> DeliveryCounts:
    error, lost = result.error or "", DeliveryCounts(lost=1)
    if result.verdict == "lost_claim":
        return lost
    if result.verdict == "retry":
        return await _record_retry(conn, settings, worker, row, error)
    if result.verdict == "sent":
        held = await outbox.mark_sent(conn, row.id, worker)
        return DeliveryCounts(sent=1) if held else lost
    if result.verdict == "unknown":
        log.warning("outbox worker: notification %s outcome unknown (%s)", row.id, error)
        held = await outbox.mark_unknown(conn, row.id, worker, error)
        return DeliveryCounts(unknown=1) if held else lost
    held = await outbox.mark_failed(conn, row.id, worker, error)
    return DeliveryCounts(failed=1) if held else lost


async def _record_retry(
    conn: Any, settings: DeliverySettings, worker: str, row: Notification, error: str
) -> DeliveryCounts:
    delay = backoff_seconds(row.attempts + 1, settings)
    status = await outbox.retry_later(
        conn, row.id, worker, error=error, delay_seconds=delay, max_attempts=settings.max_attempts
    )
    if status is None:
        return DeliveryCounts(lost=1)
    return DeliveryCounts(failed=1) if status == "failed" else DeliveryCounts(retrying=1)
