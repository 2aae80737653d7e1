"""Dispatch: which tasks are ready, which can never run, and what to send.

A ready task with a condition (`Task.when`) that does not hold is skipped
here, before its role node (and so its skill, the customer's confirmation or
an operator's approval) is ever reached. A step skipped that way is settled,
not failed: the steps after it still run (without its result).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from langgraph.runtime import Runtime

from nodes.conditions import condition_skipped, unmet
from nodes.context import SupportContext
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
from skills.registry import SkillRegistry

DONE: frozenset[TaskStatus] = frozenset({"succeeded", "failed", "rejected", "skipped"})


def status_of(state: SupportState, task_id: str) -> TaskStatus | None:
    """The task's status, or None before it first ran."""
    outcome = (state.get("outcomes") or {}).get(task_id)
    return outcome["status"] if outcome else None


def ready_tasks(state: SupportState) -> list[Task]:
    """Tasks not yet run (or approved since) whose dependencies all succeeded (or were
    skipped for their condition); their own conditions are `dispatch`'s to test."""
    grants = state.get("grants") or {}
    ready = []
    for task in plan_of(state).tasks:
        status = status_of(state, task.id)
        runnable = status in (None, "pending") or (
            status == "awaiting_approval" and task.id in grants
        )
        if runnable and all(_settled(state, d) for d in task.depends_on):
            ready.append(task)
    return ready


def _settled(state: SupportState, task_id: str) -> bool:
    outcome = (state.get("outcomes") or {}).get(task_id)
    return outcome is not None and (outcome["status"] == "succeeded" or condition_skipped(outcome))


def blocked_tasks(state: SupportState) -> list[Task]:
    """Tasks that can never run because a dependency ended without success."""
    outcomes = state.get("outcomes") or {}
    ended_badly = {
        t
        for t, o in outcomes.items()
        if o["status"] in DONE - {"succeeded"} and not condition_skipped(o)
    }
    return [
        t
        for t in plan_of(state).tasks
        if t.id not in outcomes and any(d in ended_badly for d in t.depends_on)
    ]


def unmet_conditions(state: SupportState, registry: SkillRegistry) -> dict[str, TaskOutcomeData]:
    """The `skipped` outcomes of ready tasks whose condition does not hold.

    Skipping one may ready a task after it, whose condition is then tested too,
    so that the router never sends a task with an untested condition.
    """
    outcomes: Mapping[str, TaskOutcomeData] = state.get("outcomes") or {}
    skipped: dict[str, TaskOutcomeData] = {}
    while True:
        view = cast(SupportState, {**state, "outcomes": {**outcomes, **skipped}})
        found = {
            t.id: outcome
            for t in ready_tasks(view)
            if (outcome := unmet(t, {**outcomes, **skipped}, registry)) is not None
        }
        if not found:
            return skipped
        skipped |= found


def dispatch(state: SupportState, runtime: Runtime[SupportContext]) -> StateUpdate:
    """Skip tasks whose dependencies failed or whose condition does not hold; the router
    sends the rest. While a call awaits approval nothing is decided here: the
    operator's answer comes first."""
    if state.get("pending"):
        return {}
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
    gated = unmet_conditions(state, runtime.context.registry)
    view = cast(SupportState, {**state, "outcomes": {**(state.get("outcomes") or {}), **gated}})
    ready = [t.id for t in ready_tasks(view)]
    trace = f"dispatch: ready={ready} skipped={sorted(skipped)}"
    if gated:
        trace += f" condition not met={sorted(gated)}"
    return {"outcomes": {**skipped, **gated}, "trace": [trace]}


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
        # A role agent paused for an approval continues its loop from here.
        "paused": done["payload"]
        if task.goal and done and done["status"] == "awaiting_approval"
        else None,
    }
