"""A goal task run by its role agent, and the outcome it ends with."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from nodes.agent.findings import AgentFindings
from nodes.agent.graph import agent_graph
from nodes.agent.state import AgentInput
from nodes.context import SupportContext
from nodes.contracts import Task, TaskOutcome, TaskStatus
from nodes.state import StateUpdate, TaskData, TaskInput, TaskOutcomeData, stored

NO_MODEL = "no_model"
AGENT_STOPPED = "agent_stopped"


async def pursue_goal(
    task: Task, inp: TaskInput, runtime: Runtime[SupportContext], attempt: int
) -> StateUpdate:
    """Run the role agent's loop for `task` and turn where it ended into an outcome."""
    start: AgentInput = {
        "task": stored(task, TaskData),
        "user_id": inp["user_id"],
        "audit_id": inp["audit_id"],
        "results": inp.get("results") or {},
    }
    # Invoked inside this node: the loop's steps checkpoint under the parent thread.
    end = await agent_graph().ainvoke(start, context=runtime.context)
    findings = AgentFindings(
        goal=task.goal or "",
        calls=tuple(end.get("calls") or ()),
        answer=str(end.get("answer") or ""),
        stopped=end.get("stop") or "done",
    )
    return outcome_update(task, attempt, findings, end.get("confirmation"))


def outcome_update(
    task: Task, attempt: int, findings: AgentFindings, confirmation: Any
) -> StateUpdate:
    """The role node's update for where the loop ended."""
    fields: dict[str, Any] = {"payload": findings.model_dump(mode="json")}
    status: TaskStatus
    if findings.stopped == "confirmation":
        status = "awaiting_confirmation"
    elif findings.stopped == NO_MODEL and not findings.calls:
        # Nothing but a model pursues a goal: no rules tier to fall back to.
        status, fields["error_code"] = "failed", NO_MODEL
        fields["error"] = "no model tier answered for the role agent"
    elif findings.stopped == "done":
        status = "succeeded"
    else:
        status = "succeeded" if findings.succeeded else "failed"
        fields["partial"] = True
        fields["error_code"] = None if findings.succeeded else AGENT_STOPPED
        fields["error"] = f"stopped at a bound ({findings.stopped}) before it was done"
    outcome = TaskOutcome(
        task_id=task.id, skill="", role=task.role, status=status, attempts=attempt, **fields
    )
    update: StateUpdate = {
        "outcomes": {task.id: stored(outcome, TaskOutcomeData)},
        "trace": [_trace(task, findings, status, bool(fields.get("partial")))],
    }
    if confirmation:
        update["confirmations"] = {task.id: confirmation}
    return update


def _trace(task: Task, findings: AgentFindings, status: str, partial: bool) -> str:
    called = ", ".join(f"{c.skill}:{c.status}" for c in findings.calls) or "no calls"
    shown = " partial" if partial else ""
    return f"role_{task.role}: {task.id} goal -> {status}{shown} ({findings.stopped}; {called})"
