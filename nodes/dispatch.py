"""Dispatch: which tasks are ready, which can never run, and what to send."""

from __future__ import annotations

from nodes.contracts import Task, TaskOutcome, TaskStatus
from nodes.state import (
    StateUpdate,
    SupportState,
    TaskData,
    TaskInput,
    TaskOutcomeData,
    plan_of,
    stored,
)

DONE: frozenset[TaskStatus] = frozenset({"succeeded", "failed", "rejected", "skipped"})


def status_of(state: SupportState, task_id: str) -> TaskStatus | None:
    """The task's status, or None before it first ran."""
    outcome = (state.get("outcomes") or {}).get(task_id)
    return outcome["status"] if outcome else None


def ready_tasks(state: SupportState) -> list[Task]:
    """Tasks not yet run (or approved since) whose dependencies all succeeded."""
    grants = state.get("grants") or {}
    ready = []
    for task in plan_of(state).tasks:
        status = status_of(state, task.id)
        runnable = status in (None, "pending") or (
            status == "awaiting_approval" and task.id in grants
        )
        deps_ok = all(status_of(state, d) == "succeeded" for d in task.depends_on)
        if runnable and deps_ok:
            ready.append(task)
    return ready


def blocked_tasks(state: SupportState) -> list[Task]:
    """Tasks that can never run because a dependency ended without success."""
    outcomes = state.get("outcomes") or {}
    ended_badly = {t for t, o in outcomes.items() if o["status"] in DONE - {"succeeded"}}
    return [
        t
        for t in plan_of(state).tasks
        if t.id not in outcomes and any(d in ended_badly for d in t.depends_on)
    ]


def dispatch(state: SupportState) -> StateUpdate:
    """Mark tasks whose dependencies failed as skipped; the router sends the rest."""
    skipped: dict[str, TaskOutcomeData | None] = {
        t.id: stored(
            TaskOutcome(
                task_id=t.id,
                skill=t.skill,
                role=t.role,
                status="skipped",
                error="a step it depends on did not succeed",
                attempts=0,
            ),
            TaskOutcomeData,
        )
        for t in blocked_tasks(state)
    }
    ready = [t.id for t in ready_tasks(state)]
    return {"outcomes": skipped, "trace": [f"dispatch: ready={ready} skipped={sorted(skipped)}"]}


def task_input(state: SupportState, task: Task) -> TaskInput:
    """The payload `Send` carries to the role node for one task."""
    outcomes = state.get("outcomes") or {}
    done = outcomes.get(task.id)
    return {
        "task": stored(task, TaskData),
        "user_id": state["user_id"],
        "audit_id": state["audit_id"],
        "grant": (state.get("grants") or {}).get(task.id),
        "attempt": (done["attempts"] if done else 0) + 1,
        "results": {d: outcomes[d]["payload"] for d in task.depends_on if d in outcomes},
    }
