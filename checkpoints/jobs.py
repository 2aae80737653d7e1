"""The job queue (procrastinate) on the project's database, and what each turn job left.

Workers and submitters share the one Postgres: procrastinate's tables hold
the jobs, `rolegraph_turn_jobs` holds, per turn job, where its thread stood
when the job first started (so a retried job knows whether its turn began)
and how it ended (the report, or the one-line error), announced with NOTIFY
so a submitter waits without polling.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from procrastinate import App, Blueprint, PsycopgConnector
from procrastinate.schema import SchemaManager
from psycopg.rows import DictRow

from checkpoints.errors import ConfigurationError
from checkpoints.opening import Pool
from checkpoints.threads import lock_connection

NAMESPACE = "rolegraph"
TURN_TASK = f"{NAMESPACE}:run_turn"
"""The task name a submitter defers; the worker registers it from `graphs.worker_tasks`."""
DONE_CHANNEL = "rolegraph_turn_done"
_SCHEMA_LOCK = 0x726F6A62  # "rojb"
_FALLBACK_POLL_S = 2.0
QUEUE_POOL_SIZE = 4
"""Connections of the queue's own pool per process (fetching, heartbeats, periodic defers)."""

_TURN_TABLE = """
CREATE TABLE IF NOT EXISTS rolegraph_turn_jobs (
    job_id bigint PRIMARY KEY,
    thread_id text NOT NULL,
    checkpoint_before text,
    status_before text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    report jsonb,
    progress jsonb,
    error text,
    exit_code integer
)
"""


@dataclass(frozen=True)
class WorkerSettings:
    """How often a worker says it is alive, and when a silent one's jobs are taken over."""

    heartbeat_s: float = 10.0
    """`ROLEGRAPH_WORKER_HEARTBEAT`: seconds between a worker's heartbeats."""
    stalled_after_s: float = 30.0
    """`ROLEGRAPH_WORKER_STALLED_AFTER`: seconds without a heartbeat after which the
    worker counts as dead and its running jobs are retried by another."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> WorkerSettings:
        beat = _seconds(env, "ROLEGRAPH_WORKER_HEARTBEAT", cls.heartbeat_s)
        stalled = _seconds(env, "ROLEGRAPH_WORKER_STALLED_AFTER", cls.stalled_after_s)
        if stalled <= 2 * beat:
            raise ConfigurationError(
                f"ROLEGRAPH_WORKER_STALLED_AFTER={stalled:g} must exceed twice"
                f" ROLEGRAPH_WORKER_HEARTBEAT={beat:g}, or a live worker counts as dead"
            )
        return cls(heartbeat_s=beat, stalled_after_s=stalled)


@dataclass(frozen=True)
class TurnStart:
    """Where a turn job's thread stood when the job first started."""

    checkpoint_before: str | None
    status_before: str
    first_attempt: bool
    finished: bool


@dataclass(frozen=True)
class TurnOutcome:
    """How a turn job ended: `report` (the `RunReport` fields) or `error` with its exit code."""

    job_id: int
    report: dict[str, Any] | None
    progress: list[str]
    error: str | None
    exit_code: int


async def apply_schema(pool: Pool) -> None:
    """Create the queue's tables (procrastinate's schema) and the turn table, once."""
    async with pool.connection() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
        cur = await conn.execute("SELECT to_regclass('procrastinate_jobs') IS NOT NULL AS ok")
        row = await cur.fetchone()
        if not (row and row["ok"]):
            await conn.execute(SchemaManager.get_schema().encode(), prepare=False)
        await conn.execute(_TURN_TABLE)


@asynccontextmanager
async def open_queue(pool: Pool, tasks: Blueprint | None = None) -> AsyncIterator[App]:
    """The queue on `pool`'s database, its schema applied; `tasks` registered for a worker."""
    await apply_schema(pool)
    if not isinstance(pool.conninfo, str):
        raise TypeError("the queue needs a pool opened from a URL (checkpoints.pool.open_pool)")
    # A pool of its own: procrastinate's LISTEN connection re-uses its pool's connection
    # arguments and sets autocommit itself, which ours already set.
    connector = PsycopgConnector(
        conninfo=pool.conninfo, min_size=1, max_size=QUEUE_POOL_SIZE,
        kwargs={"prepare_threshold": None},
    )  # fmt: skip
    app = App(connector=connector)
    if tasks is not None:
        app.add_tasks_from(tasks, namespace=NAMESPACE)
    await app.open_async()
    try:
        yield app
    finally:
        await app.close_async()


async def begin_attempt(
    pool: Pool, job_id: int, thread_id: str, checkpoint: str | None, status: str
) -> TurnStart:
    """Record where the thread stands at the job's first attempt; a retry gets that record."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "INSERT INTO rolegraph_turn_jobs (job_id, thread_id, checkpoint_before, status_before)"
            " VALUES (%s, %s, %s, %s) ON CONFLICT (job_id) DO NOTHING RETURNING job_id",
            (job_id, thread_id, checkpoint, status),
        )
        if await cur.fetchone():
            return TurnStart(checkpoint, status, first_attempt=True, finished=False)
        cur = await conn.execute(
            "SELECT checkpoint_before, status_before, finished_at IS NOT NULL AS finished"
            " FROM rolegraph_turn_jobs WHERE job_id = %s",
            (job_id,),
        )
        row = await cur.fetchone()
    assert row is not None
    return TurnStart(row["checkpoint_before"], row["status_before"], False, row["finished"])


async def record_outcome(
    pool: Pool,
    job_id: int,
    *,
    report: dict[str, Any] | None = None,
    progress: list[str] | None = None,
    error: str | None = None,
    exit_code: int = 0,
) -> None:
    """Store how the job ended and tell waiting submitters (on commit)."""
    async with pool.connection() as conn, conn.transaction():
        await conn.execute(
            "UPDATE rolegraph_turn_jobs SET finished_at = now(), report = %s, progress = %s,"
            " error = %s, exit_code = %s WHERE job_id = %s",
            (_json(report), _json(progress or []), error, exit_code, job_id),
        )
        await conn.execute("SELECT pg_notify(%s, %s)", (DONE_CHANNEL, str(job_id)))


async def wait_outcomes(
    pool: Pool, job_ids: Collection[int], *, timeout_s: float
) -> dict[int, TurnOutcome]:
    """The outcomes of `job_ids` as they finish, within `timeout_s` (the finished ones then).

    LISTEN on a connection of its own (outside the pool) wakes the waiter when jobs
    finish, and only the jobs announced are read (waiting for many stays linear); a
    slow fallback poll of all that are left covers a notification lost to a reconnect.
    """
    wanted, found = set(job_ids), dict[int, TurnOutcome]()
    conn = await lock_connection(pool)
    try:
        await conn.execute(f"LISTEN {DONE_CHANNEL}")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        check = wanted
        while True:
            found.update(await _finished(conn, check - set(found)))
            left = deadline - loop.time()
            if set(found) >= wanted or left <= 0:
                return found
            announced = await _announced(conn, min(left, _FALLBACK_POLL_S))
            check = wanted if announced is None else wanted & announced
    finally:
        await conn.close()


async def job_status(pool: Pool, job_id: int) -> str | None:
    """The queue's status of a job (todo, doing, succeeded, failed…); None once deleted."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT status::text AS s FROM procrastinate_jobs WHERE id = %s", (job_id,)
        )
        row = await cur.fetchone()
    return None if row is None else str(row["s"])


async def prune_turn_jobs(conn: psycopg.AsyncConnection[DictRow], older_than_days: int) -> int:
    """Delete finished turn records (and finished queue jobs) older than the period."""
    cur = await conn.execute(
        "DELETE FROM rolegraph_turn_jobs WHERE finished_at < now() - make_interval(days => %s)",
        (older_than_days,),
    )
    removed = cur.rowcount
    await conn.execute(
        "DELETE FROM procrastinate_jobs WHERE status IN ('succeeded', 'failed', 'cancelled',"
        " 'aborted') AND id NOT IN (SELECT job_id FROM rolegraph_turn_jobs)"
        " AND scheduled_at < now() - make_interval(days => %s)",
        (older_than_days,),
    )
    return removed


async def _finished(
    conn: psycopg.AsyncConnection[DictRow], job_ids: set[int]
) -> dict[int, TurnOutcome]:
    if not job_ids:
        return {}
    cur = await conn.execute(
        "SELECT job_id, report, progress, error, exit_code FROM rolegraph_turn_jobs"
        " WHERE job_id = ANY(%s) AND finished_at IS NOT NULL",
        (list(job_ids),),
    )
    return {
        int(r["job_id"]): TurnOutcome(
            int(r["job_id"]), r["report"], list(r["progress"] or []), r["error"], r["exit_code"]
        )
        for r in await cur.fetchall()
    }


async def _announced(conn: psycopg.AsyncConnection[DictRow], wait_s: float) -> set[int] | None:
    """The job ids announced within `wait_s`, all that arrived together; None when
    nothing (or something unreadable) arrived, so that every job left is checked."""
    # Iterated to its end, never left early: the generator holds the connection's lock.
    payloads = [note.payload async for note in conn.notifies(timeout=wait_s, stop_after=1)]
    if not payloads or not all(p.isdigit() for p in payloads):
        return None
    return {int(p) for p in payloads}


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, default=str)


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if value <= 0:
        raise ConfigurationError(
            f"{name}={raw!r} is not usable; set a positive number of seconds,"
            f" or unset it for {default:g}"
        )
    return value
