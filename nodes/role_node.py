"""One factory builds every role node from its role file.

A role node runs exactly one task per invocation (`Send` fans tasks out) and
reaches skills only through the skill runtime, which re-checks the role's
whitelist on every call: a skill the role file does not grant is never bound
here and cannot run even if a plan or a model names it.
"""

from __future__ import annotations

import uuid
from collections.abc import Coroutine
from typing import Any, Protocol

from langgraph.runtime import Runtime

from nodes.context import ADHOC, SupportContext, run_position
from nodes.contracts import ApprovalRequest, Task, TaskOutcome, TaskStatus
from nodes.errors import BindingError, PreconditionFailed
from nodes.planner.binding import bind_args, check_preconditions, summarize_results
from nodes.state import TaskInput
from skills.contract import Approval, SkillRequest, SkillResult
from skills.errors import ApprovalRequired
from skills.roles import RoleSpec


class RoleNode(Protocol):
    def __call__(
        self, state: TaskInput, *, runtime: Runtime[SupportContext]
    ) -> Coroutine[Any, Any, dict[str, Any]]: ...


def node_name(role: str) -> str:
    return f"role_{role}"


def make_role_node(spec: RoleSpec) -> RoleNode:
    """Build the node for one role; its whitelist is the role file's."""

    async def role_node(state: TaskInput, *, runtime: Runtime[SupportContext]) -> dict[str, Any]:
        task = Task.model_validate(state["task"])
        attempt = state.get("attempt", 1)
        try:
            request = _request(spec.name, task, state, *_run_position())
        except PreconditionFailed as exc:
            return _outcome(
                task, "failed", attempt, error_code="precondition_failed", error=str(exc)
            )
        except BindingError as exc:
            return _outcome(task, "failed", attempt, error_code="binding_error", error=str(exc))
        try:
            # Denials and failures come back as results; only control signals raise.
            result: SkillResult = await runtime.context.skills.call(request)
        except ApprovalRequired as signal:
            return _awaiting(task, state, signal)
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


def _request(role: str, task: Task, inp: TaskInput, thread_id: str, step: int) -> SkillRequest:
    grant = inp.get("grant")
    if grant and grant.get("skill") != task.skill:
        grant = None  # an approval names one skill; it never carries over to another
    results = inp.get("results") or {}
    args = grant["args"] if grant else bind_args(task.args, results)
    if not grant:
        check_preconditions(task.skill, args, results)
    approval = (
        Approval(
            approval_id=grant["approval_id"], skill_id=task.skill, args_hash=grant["args_hash"]
        )
        if grant
        else None
    )
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
        approval=approval,
    )


def _awaiting(task: Task, inp: TaskInput, signal: ApprovalRequired) -> dict[str, Any]:
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
        evidence=tuple(summarize_results(inp.get("results") or {}).splitlines())[:5],
        audit_id=inp["audit_id"],
    )
    out = _outcome(task, "awaiting_approval", error=signal.reason)
    out["pending"] = {request_id: pending.model_dump(mode="json")}
    out["grants"] = {task.id: None}
    return out


def _outcome(task: Task, status: TaskStatus, attempt: int = 1, **fields: Any) -> dict[str, Any]:
    outcome = TaskOutcome(
        task_id=task.id, skill=task.skill, role=task.role, status=status, attempts=attempt, **fields
    )
    return {
        "outcomes": {task.id: outcome.model_dump(mode="json")},
        "trace": [f"{node_name(task.role)}: {task.id} {task.skill} -> {status}"],
    }
