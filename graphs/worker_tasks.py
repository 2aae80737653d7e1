"""What a `rolegraph worker` runs: turn jobs, and the periodic jobs of a deployment.

`run_turn` executes one `TurnRequest` through the Python API. A job whose
worker died is retried by another worker (`recover_stalled`); the retry reads
where the thread stood when the job first started (`checkpoints.jobs`), and
continues the thread from its last checkpoint if the first attempt began the
turn, starts it otherwise, or only reports it if the turn had already ended —
never running the customer's text as a second turn. Outbox delivery,
retention and stalled-job recovery are periodic jobs, so a deployment runs
workers only.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from typing import Any

from procrastinate import Blueprint, JobContext, RetryStrategy
from procrastinate import exceptions as queue_errors

from checkpoints import jobs
from checkpoints.errors import NotFound, RolegraphError
from checkpoints.faults import DATABASE_ERROR
from checkpoints.opening import Database
from checkpoints.threads import is_running
from graphs.api import OnStep, RunReport, continue_thread, report, resume_thread, run_request
from graphs.jobs import TurnRequest
from graphs.maintenance import MaintenanceSettings, deliver_outbox, prune_retained
from graphs.modes import checked_mode, mode_of, sibling
from nodes.context import SupportContext

log = logging.getLogger(__name__)
RUNTIME_KEY = "rolegraph"


@dataclass(frozen=True)
class WorkerRuntime:
    """What every job of one worker process shares: the database, the context, the graph."""

    db: Database
    ctx: SupportContext
    graph: Any
    settings: jobs.WorkerSettings
    maintenance: MaintenanceSettings


class ThreadBusy(Exception):
    """Another process runs the thread right now (a direct `rolegraph run`, or a worker whose
    death is not yet visible): the job is retried a second later."""


BUSY_RETRIES = RetryStrategy(max_attempts=120, wait=1, retry_exceptions={ThreadBusy})


@dataclass(frozen=True)
class _Where:
    checkpoint: str | None
    status: str


def worker_tasks() -> Blueprint:
    """A fresh set of the worker's tasks (a blueprint can be registered on one app only)."""
    tasks = Blueprint()
    tasks.task(name="run_turn", pass_context=True, retry=BUSY_RETRIES)(run_turn)
    tasks.periodic(cron="*/5 * * * * *")(
        tasks.task(name="recover_stalled", pass_context=True)(recover_stalled)
    )
    tasks.periodic(cron="*/5 * * * * *")(
        tasks.task(name="deliver_outbox", pass_context=True)(deliver_outbox_job)
    )
    tasks.periodic(cron="17 * * * *")(
        tasks.task(name="prune_retained", pass_context=True)(prune_job)
    )
    return tasks


async def run_turn(context: JobContext, request: dict[str, Any]) -> None:
    """One turn of `request`'s thread, exactly once however often the job is attempted."""
    rt, turn, job_id = runtime(context), TurnRequest.model_validate(request), _job_id(context)
    if await is_running(rt.ctx.pool, turn.thread_id):
        raise ThreadBusy(f"thread {turn.thread_id!r} is being run by another process")
    now = await _where(rt, turn.thread_id)
    start = await jobs.begin_attempt(
        rt.ctx.pool, job_id, turn.thread_id, now.checkpoint, now.status
    )
    if start.finished:
        return
    progress: list[str] = []
    try:
        result = await _attempt(rt, turn, start, now, progress)
    except RolegraphError as exc:
        await jobs.record_outcome(rt.ctx.pool, job_id, error=str(exc), exit_code=exc.exit_code)
        return
    except Exception as exc:
        await jobs.record_outcome(rt.ctx.pool, job_id, error=_failure(turn, exc), exit_code=2)
        raise
    await jobs.record_outcome(rt.ctx.pool, job_id, report=asdict(result), progress=progress)


async def _attempt(
    rt: WorkerRuntime, turn: TurnRequest, start: jobs.TurnStart, now: _Where, progress: list[str]
) -> RunReport:
    """Start the turn, continue the one an earlier attempt began, or report the finished one."""

    def on_step(node: str, update: dict[str, Any]) -> None:
        progress.extend(update.get("trace") or [])

    began = now.checkpoint != start.checkpoint_before
    if now.status == "crashed" and (turn.kind == "continue" or start.status_before != "crashed"):
        return await continue_thread(
            rt.graph, rt.ctx, turn.thread_id, actor=turn.actor, on_step=on_step
        )
    if not start.first_attempt and began:
        return await report(rt.graph, turn.thread_id)
    return await _do(rt, turn, on_step)


async def _do(rt: WorkerRuntime, turn: TurnRequest, on_step: OnStep) -> RunReport:
    graph, ctx, actor = rt.graph, rt.ctx, turn.actor
    if turn.mode is not None and turn.mode != mode_of(graph):
        # For a new thread; `graphs.api` runs a thread that exists in its own mode anyway.
        graph = sibling(graph, checked_mode(turn.mode), ctx.roles)
    if turn.kind == "turn":
        return await run_request(
            graph, ctx, text=turn.text or "", user_id=turn.user_id or "",
            thread_id=turn.thread_id, actor=actor, on_step=on_step,
        )  # fmt: skip
    if turn.kind == "resume":
        return await resume_thread(
            graph, ctx, turn.thread_id, decision=turn.decision or "", request_id=turn.request_id,
            args=turn.args, message=turn.message, actor=actor, on_step=on_step,
        )  # fmt: skip
    return await continue_thread(graph, ctx, turn.thread_id, actor=actor, on_step=on_step)


async def _where(rt: WorkerRuntime, thread_id: str) -> _Where:
    """The thread's latest checkpoint id and status (`new` before its first checkpoint)."""
    snapshot = await rt.graph.aget_state({"configurable": {"thread_id": thread_id}})
    checkpoint = (snapshot.config or {}).get("configurable", {}).get("checkpoint_id")
    try:
        status = (await report(rt.graph, thread_id)).status
    except NotFound:
        status = "new"
    return _Where(checkpoint, status)


async def recover_stalled(context: JobContext, timestamp: int) -> None:
    """Retry the running jobs of workers whose heartbeat stopped (killed, cut off)."""
    rt, manager = runtime(context), context.app.job_manager
    stalled = await manager.get_stalled_jobs(seconds_since_heartbeat=rt.settings.stalled_after_s)
    for job in stalled:
        try:
            await manager.retry_job(job)
        except queue_errors.ConnectorException:
            continue  # another worker retried it first
        log.warning("worker: retried job %s of a stalled worker (%s)", job.id, job.task_name)


async def deliver_outbox_job(context: JobContext, timestamp: int) -> None:
    """One outbox delivery pass (`rolegraph notify deliver`), when SMTP_HOST is set."""
    rt = runtime(context)
    await deliver_outbox(rt.db, rt.maintenance)


async def prune_job(context: JobContext, timestamp: int) -> None:
    """Retention (`rolegraph threads prune`'s work) with the ROLEGRAPH_RETAIN_* periods."""
    rt = runtime(context)
    await prune_retained(rt.db, rt.maintenance)


def runtime(context: JobContext) -> WorkerRuntime:
    value = context.additional_context.get(RUNTIME_KEY)
    if not isinstance(value, WorkerRuntime):
        raise TypeError("rolegraph jobs run only in `rolegraph worker` (no runtime in context)")
    return value


def _job_id(context: JobContext) -> int:
    if context.job.id is None:
        raise TypeError("a job being run has an id")
    return context.job.id


def _failure(turn: TurnRequest, exc: Exception) -> str:
    cause = "lost the database connection" if isinstance(exc, DATABASE_ERROR) else "failed"
    return (
        f"the worker {cause} mid-turn ({type(exc).__name__}); thread {turn.thread_id} keeps its"
        f" last checkpoint: continue it with `rolegraph resume {turn.thread_id}`"
    )
