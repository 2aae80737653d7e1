"""One factory builds every role node from its role file.

A role node runs exactly one task per invocation (`Send` fans tasks out): a
planned skill call, or a goal its role agent pursues with a bounded
tool-calling loop on the role's model tier (`nodes.agent`). It reaches skills
only through the skill runtime, which re-checks the role's
whitelist on every call: a skill the role file does not grant is never bound
here and cannot run even if a plan or a model names it.
"""

from __future__ import annotations

import uuid
from collections.abc import Coroutine
from typing import Any, Protocol

from langgraph.runtime import Runtime

from nodes.agent.run import pursue_goal
from nodes.context import ADHOC, SupportContext, run_position
from nodes.contracts import ApprovalRequest, ConfirmationRequest, Task, TaskOutcome, TaskStatus
from nodes.domain import DomainPlanning
from nodes.errors import BindingError, PreconditionFailed
from nodes.outcomes import PRECONDITION_FAILED
from nodes.planner.binding import bind_args
from nodes.state import (
    ApprovalRequestData,
    ConfirmationRequestData,
    StateUpdate,
    TaskInput,
    TaskOutcomeData,
    grant_of,
    stored,
)
from skills.contract import SkillRequest, SkillResult
from skills.errors import ApprovalRequired, ConfirmationRequired
from skills.roles import RoleSpec


class RoleNode(Protocol):
    def __call__(
        self, state: TaskInput, *, runtime: Runtime[SupportContext]
    ) -> Coroutine[Any, Any, StateUpdate]: ...


def node_name(role: str) -> str:
    return f"role_{role}"


def make_role_node(spec: RoleSpec) -> RoleNode:
    """Build the node for one role; its whitelist is the role file's."""

    async def role_node(state: TaskInput, *, runtime: Runtime[SupportContext]) -> StateUpdate:
        task = Task.model_validate(state["task"])
        attempt = state.get("attempt", 1)
        if task.goal is not None:
            # No fixed call: the role's agent pursues the goal (`nodes.agent`).
            return await pursue_goal(task, state, runtime, attempt)
        planning = runtime.context.domain.planning
        try:
            request = _request(spec.name, task, state, planning, *_run_position())
        except PreconditionFailed as exc:
            # Declined, not failed: the answer tells why (`nodes.outcomes`).
            return _outcome(task, "failed", attempt, error_code=PRECONDITION_FAILED, error=str(exc))
        except BindingError as exc:
            return _outcome(task, "failed", attempt, error_code=exc.code, error=str(exc))
        try:
            # Denials and failures come back as results; only control signals raise.
            result: SkillResult = await runtime.context.skills.call(request)
        except ConfirmationRequired as signal:
            return _to_confirm(task, signal)
        except ApprovalRequired as signal:
            return _awaiting(task, state, signal, planning)
        return _outcome(
            task,
            "succeeded" if result.ok else "failed",
            attempt,
            payload=result.payload,
            error_code=result.error_code,
            error=result.error_message,
            notice=result.notice,
        )

    role_node.__name__ = node_name(spec.name)
    return role_node


def _run_position() -> tuple[str, int]:
    """(thread id, superstep) of the running graph, for the audit trail."""
    position = run_position()
    return position.thread_id or ADHOC, position.step


def _request(
    role: str, task: Task, inp: TaskInput, planning: DomainPlanning, thread_id: str, step: int
) -> SkillRequest:
    grant = grant_of(inp)
    if grant and grant.skill_id != task.skill:
        grant = None  # an approval names one skill; it never carries over to another
    results = inp.get("results") or {}
    if grant:
        args = grant.args
    else:
        args = bind_args(planning, task.skill, task.args, results)
        planning.check_preconditions(task.skill, args, results)
    return SkillRequest(
        skill_id=task.skill,
        args=args,
        role=role,
        user_id=inp["user_id"],
        thread_id=thread_id,
        run_id=inp["audit_id"],
        task_id=task.id,
        node=node_name(role),
        audit_id=inp["audit_id"],
        step=step,
        approval=grant.approval() if grant else None,
    )


def _awaiting(
    task: Task, inp: TaskInput, signal: ApprovalRequired, planning: DomainPlanning
) -> StateUpdate:
    # The id is derived from the call, so a re-executed node asks the same
    # question instead of a new one.
    request_id = (
        "apr-"
        + uuid.uuid5(uuid.NAMESPACE_URL, f"{inp['audit_id']}/{task.id}/{signal.args_hash}").hex[:12]
    )
    pending = ApprovalRequest(
        id=request_id,
        kind="approval",
        task_id=task.id,
        skill=task.skill,
        risk="high",
        args=signal.args,
        args_hash=signal.args_hash,
        reason=signal.reason,
        evidence=tuple(planning.summarize(inp.get("results") or {}).splitlines())[:5],
        audit_id=inp["audit_id"],
    )
    out = _outcome(task, "awaiting_approval", error=signal.reason)
    out["pending"] = {request_id: stored(pending, ApprovalRequestData)}
    # A new request for the task voids any grant it held (the merge drops None).
    out["grants"] = {task.id: None}
    return out


def _to_confirm(task: Task, signal: ConfirmationRequired) -> StateUpdate:
    """The call waits for the customer's yes: the turn ends with the question."""
    request = ConfirmationRequest(
        task_id=task.id, skill=task.skill, args=signal.args, args_hash=signal.args_hash
    )
    out = _outcome(task, "awaiting_confirmation", error=signal.reason)
    out["confirmations"] = {task.id: stored(request, ConfirmationRequestData)}
    return out


def _outcome(task: Task, status: TaskStatus, attempt: int = 1, **fields: Any) -> StateUpdate:
    outcome = TaskOutcome(
        task_id=task.id, skill=task.skill, role=task.role, status=status, attempts=attempt, **fields
    )
    return {
        "outcomes": {task.id: stored(outcome, TaskOutcomeData)},
        "trace": [f"{node_name(task.role)}: {task.id} {task.skill} -> {status}"],
    }
