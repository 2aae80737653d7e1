"""Dispatch: which tasks are ready, which can never run, and what to send."""

from __future__ import annotations

from typing import Any

from nodes.contracts import Task, TaskOutcome
from nodes.state import SupportState, plan_of

DONE = frozenset({"succeeded", "failed", "rejected", "skipped"})


def ready_tasks(state: SupportState) -> list[Task]:
    """Tasks not yet run (or approved since) whose dependencies all succeeded."""
    plan = plan_of(state)
    outcomes = state.get("outcomes") or {}
    grants = state.get("grants") or {}
    ready = []
    for task in plan.tasks:
        status = outcomes.get(task.id, {}).get("status")
        runnable = status in (None, "pending") or (
            status == "awaiting_approval" and task.id in grants
        )
        deps_ok = all(outcomes.get(d, {}).get("status") == "succeeded" for d in task.depends_on)
        if runnable and deps_ok:
            ready.append(task)
    return ready


def blocked_tasks(state: SupportState) -> list[Task]:
    """Tasks that can never run because a dependency ended without success."""
    plan = plan_of(state)
    outcomes = state.get("outcomes") or {}
    ended_badly = {t for t, o in outcomes.items() if o["status"] in DONE - {"succeeded"}}
    return [
        t
        for t in plan.tasks
        if t.id not in outcomes and any(d in ended_badly for d in t.depends_on)
    ]


def dispatch(state: SupportState) -> dict[str, Any]:
    """Mark tasks whose dependencies failed as skipped; the router sends the rest."""
    skipped = {
        t.id: TaskOutcome(
            task_id=t.id,
            skill=t.skill,
            role=t.role,
            status="skipped",
            error="a step it depends on did not succeed",
            attempts=0,
        ).model_dump(mode="json")
        for t in blocked_tasks(state)
    }
    ready = [t.id for t in ready_tasks(state)]
    return {"outcomes": skipped, "trace": [f"dispatch: ready={ready} skipped={sorted(skipped)}"]}


def task_input(state: SupportState, task: Task) -> dict[str, Any]:
    """The payload `Send` carries to the role node for one task."""
    outcomes = state.get("outcomes") or {}
    return {
        "task": task.model_dump(mode="json"),
        "user_id": state["user_id"],
        "audit_id": state["audit_id"],
        "grant": (state.get("grants") or {}).get(task.id),
        "attempt": int(outcomes.get(task.id, {}).get("attempts") or 0) + 1,
        "results": {d: outcomes[d].get("payload") for d in task.depends_on if d in outcomes},
    }
