"""Turns on the job queue: submit one, wait for its result (the Python API of `--queue`).

A submitted turn is run by whichever `rolegraph worker` takes it, through the
same `run_request` / `resume_thread` / `continue_thread` as a direct call, so
the checks and the result are the same. Jobs of one thread carry the thread id
as their queue lock: they run one after the other, in the order submitted.

    async with open_project_database() as db, open_queue(db.pool) as queue:
        job = await submit_turn(queue, TurnRequest.new_turn("Where is my order?", "u1", actor))
        done = await wait_turn(db.pool, job)        # QueuedTurn: .report, .progress
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from procrastinate import App
from pydantic import BaseModel, ConfigDict

from checkpoints.errors import NotFound, RolegraphError
from checkpoints.jobs import TURN_TASK, job_status, wait_outcomes
from checkpoints.opening import Pool
from graphs.api import RunReport, new_thread_id
from nodes.identity import Identity

TurnKind = Literal["turn", "resume", "continue"]
DEFAULT_WAIT_S = 300.0


class TurnRequest(BaseModel):
    """One turn for a worker: a customer's new turn, an operator's decision, or a continue."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: TurnKind
    thread_id: str
    actor_kind: Literal["customer", "operator"]
    actor_subject: str
    text: str | None = None
    user_id: str | None = None
    decision: str | None = None
    request_id: str | None = None
    args: dict[str, Any] | None = None
    message: str | None = None
    mode: str | None = None
    """The execution mode a new thread starts in (`graphs.modes`; the worker's graph's when
    None). A thread that exists always runs in its own."""

    @classmethod
    def new_turn(
        cls,
        text: str,
        user_id: str,
        actor: Identity | None = None,
        thread_id: str | None = None,
        mode: str | None = None,
    ) -> TurnRequest:
        """`run_request`'s arguments: a new thread unless `thread_id` names one."""
        actor = actor or Identity("customer", user_id)
        return cls(
            kind="turn", thread_id=thread_id or new_thread_id(), text=text, user_id=user_id,
            actor_kind=actor.kind, actor_subject=actor.subject, mode=mode,
        )  # fmt: skip

    @classmethod
    def resume(cls, thread_id: str, actor: Identity, decision: str, **answer: Any) -> TurnRequest:
        """`resume_thread`'s arguments (`request_id`, `args`, `message` in `answer`)."""
        return cls(
            kind="resume", thread_id=thread_id, decision=decision,
            actor_kind=actor.kind, actor_subject=actor.subject, **answer,
        )  # fmt: skip

    @classmethod
    def continue_crashed(
        cls, thread_id: str, actor: Identity, mode: str | None = None
    ) -> TurnRequest:
        """`continue_thread`'s arguments."""
        return cls(
            kind="continue", thread_id=thread_id, actor_kind=actor.kind,
            actor_subject=actor.subject, mode=mode,
        )  # fmt: skip

    @property
    def actor(self) -> Identity:
        return Identity(self.actor_kind, self.actor_subject)


@dataclass(frozen=True)
class QueuedTurn:
    """A finished queued turn: where the thread stands, and the progress lines of the run."""

    job_id: int
    report: RunReport
    progress: list[str] = field(default_factory=list)


class TurnFailed(RolegraphError):
    """The worker refused or could not run the turn (the message says why, as `run` would)."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


async def submit_turn(queue: App, request: TurnRequest) -> int:
    """Put `request` on the queue; its job id. Jobs of one thread never run at once."""
    return (await submit_turns(queue, [request]))[0]


async def submit_turns(queue: App, requests: Sequence[TurnRequest]) -> list[int]:
    """Put all `requests` on the queue in one statement; their job ids, in order.

    Each job's lock is its thread, so turns of one thread still run one after the
    other, in the order given.
    """
    jobs = [
        queue.configure_task(TURN_TASK, lock=r.thread_id).make_new_job(
            request=r.model_dump(mode="json")
        )
        for r in requests
    ]
    deferred = await queue.job_manager.batch_defer_jobs_async(jobs)
    ids = [job.id for job in deferred if job.id is not None]
    if len(ids) != len(requests):
        raise RuntimeError("the queue gave no job id for a submitted turn")
    return ids


async def wait_turn(pool: Pool, job_id: int, *, timeout_s: float = DEFAULT_WAIT_S) -> QueuedTurn:
    """Wait for turn job `job_id` to finish; its result, or its error raised as `TurnFailed`."""
    done = await wait_turns(pool, [job_id], timeout_s=timeout_s)
    if job_id not in done:
        raise TurnFailed(await _not_finished(pool, job_id, timeout_s))
    return done[job_id]


async def wait_turns(
    pool: Pool, job_ids: list[int], *, timeout_s: float = DEFAULT_WAIT_S
) -> dict[int, QueuedTurn]:
    """Wait for many turn jobs at once (one listening connection); the finished ones by id.

    A job that ended with an error raises `TurnFailed` for the first such job.
    """
    outcomes = await wait_outcomes(pool, job_ids, timeout_s=timeout_s)
    results: dict[int, QueuedTurn] = {}
    for job_id, outcome in outcomes.items():
        if outcome.error is not None or outcome.report is None:
            raise TurnFailed(outcome.error or "the turn ended without a report", outcome.exit_code)
        results[job_id] = QueuedTurn(job_id, RunReport(**outcome.report), outcome.progress)
    return results


async def run_queued(
    queue: App, pool: Pool, request: TurnRequest, *, timeout_s: float = DEFAULT_WAIT_S
) -> QueuedTurn:
    """Submit `request` and wait for its result."""
    return await wait_turn(pool, await submit_turn(queue, request), timeout_s=timeout_s)


async def _not_finished(pool: Pool, job_id: int, timeout_s: float) -> str:
    status = await job_status(pool, job_id)
    if status is None:
        raise NotFound(f"no turn job {job_id}; it was never submitted or has been pruned")
    return (
        f"turn job {job_id} is still {status} after {timeout_s:g} s; is a `rolegraph worker`"
        " running on this database? The job stays queued and runs when one is"
    )
