"""A goal task run by its role agent, and the outcome it ends with."""

from __future__ import annotations

from typing import Any, cast

from langgraph.runtime import Runtime

from nodes.agent.findings import AgentCall, AgentFindings
from nodes.agent.graph import agent_graph
from nodes.agent.pause import AgentPause, pause_of, resumed
from nodes.agent.state import AgentState
from nodes.context import SupportContext
from nodes.contracts import ApprovalRequest, Task, TaskOutcome, TaskStatus
from nodes.models.budget_notice import BUDGET_SPENT, notify_budget_spent
from nodes.models.call import call_site
from nodes.state import (
    ApprovalRequestData,
    StateUpdate,
    TaskData,
    TaskInput,
    TaskOutcomeData,
    grant_of,
    stored,
)

NO_MODEL = "no_model"
AGENT_STOPPED = "agent_stopped"


async def pursue_goal(
    task: Task, inp: TaskInput, runtime: Runtime[SupportContext], attempt: int
) -> StateUpdate:
    """Run the role agent's loop for `task` (from its pause, once approved) and turn
    where it ended into an outcome."""
    # Invoked inside this node: the loop's steps checkpoint under the parent thread.
    end = cast(AgentState, await agent_graph().ainvoke(_start(task, inp), context=runtime.context))
    if end.get("stop") == "approval" and end.get("waiting"):
        return _awaiting(task, attempt, end, runtime.context)
    findings = AgentFindings(
        goal=task.goal or "",
        calls=tuple(AgentCall.model_validate(c) for c in end.get("calls") or ()),
        answer=str(end.get("answer") or ""),
        stopped=end.get("stop") or "done",
    )
    over = end.get("over_budget")
    if findings.stopped == "budget" and over is not None and not findings.calls:
        # Queued once per request and role: the key names them, so a re-run adds nothing.
        site = call_site(f"role_{task.role}", dict(inp), role=task.role)
        ctx = runtime.context
        await notify_budget_spent(ctx.pool, ctx.operator_notices, site, over, inp["user_id"])
    return outcome_update(task, attempt, findings, end.get("confirmation"))


def _start(task: Task, inp: TaskInput) -> dict[str, Any]:
    start: dict[str, Any] = {
        "task": stored(task, TaskData),
        "user_id": inp["user_id"],
        "audit_id": inp["audit_id"],
        "results": inp.get("results") or {},
    }
    grant, paused = grant_of(inp), inp.get("paused")
    if grant is None or not paused:
        return start
    # The operator approved the call the loop paused at: it goes on from there.
    return {**start, **resumed(AgentPause.model_validate(paused)), "grant": inp["grant"]}


def _awaiting(task: Task, attempt: int, end: AgentState, ctx: SupportContext) -> StateUpdate:
    request = ApprovalRequest.model_validate(end["waiting"])
    # The operator sees what the agent found before it asked (untrusted tool output).
    found = {f"call{i}": c["payload"] for i, c in enumerate(end.get("calls") or []) if c["payload"]}
    summary = ctx.domain.planning.summarize({**(end.get("results") or {}), **found})
    request = request.model_copy(update={"evidence": tuple(summary.splitlines())[:5]})
    pause = pause_of(task.goal or "", end)
    outcome = TaskOutcome(
        task_id=task.id,
        skill=request.skill or "",
        role=task.role,
        status="awaiting_approval",
        payload=pause.model_dump(mode="json"),
        error=request.reason,
        attempts=attempt,
    )
    return {
        "outcomes": {task.id: stored(outcome, TaskOutcomeData)},
        "pending": {request.id: stored(request, ApprovalRequestData)},
        # A new request for the task voids any grant it held (the merge drops None).
        "grants": {task.id: None},
        "trace": [f"role_{task.role}: {task.id} goal -> awaiting_approval ({request.skill})"],
    }


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
    elif findings.stopped == "budget" and not findings.calls:
        # A spent budget kept every tier from the goal before one call: the customer is
        # told so (`nodes.agent.answer`) and the operators were notified.
        status, fields["error_code"] = "failed", BUDGET_SPENT
        fields["error"] = "a token budget kept every model tier from the role agent"
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
