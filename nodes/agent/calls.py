"""One tool call of a role agent, made through the skill runtime.

The runtime re-checks everything: the role's whitelist (a tool the role does
not hold is refused and audited, never run), validation, ownership,
confirmation, approval, idempotency. The session's customer fills the
context parameters; the model's values for them are ignored.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from nodes.agent.findings import AgentCall
from nodes.agent.state import AgentState
from nodes.agent.tools import agent_skills
from nodes.context import ADHOC, SupportContext, run_position
from nodes.contracts import ApprovalRequest, ConfirmationRequest, Task
from skills.contract import Approval, SkillMetadata, SkillRequest, SkillResult


@dataclass(frozen=True)
class Whose:
    """The task a call belongs to, and where in the run it is made."""

    task: Task
    user_id: str
    audit_id: str
    thread_id: str
    step: int

    @classmethod
    def of(cls, state: AgentState) -> Whose:
        position = run_position()
        return cls(
            task=Task.model_validate(state["task"]),
            user_id=state["user_id"],
            audit_id=state["audit_id"],
            thread_id=position.thread_id or ADHOC,
            step=position.step,
        )


def offered(ctx: SupportContext, task: Task) -> list[SkillMetadata]:
    """The skills `task`'s agent is given as tools (`nodes.agent.tools.agent_skills`): its
    role's, and of those only the reads unless the goal may make changes."""
    bound = ctx.skills.bound_skills(ctx.roles[task.role])
    skills = agent_skills(bound, ctx.domain.planning.unplannable)
    if task.changes:
        return skills
    return [m for m in skills if not ctx.registry.is_side_effect(m.skill_id)]


def session_args(ctx: SupportContext, skill: str, args: object, user_id: str) -> dict[str, Any]:
    """The model's arguments with the session's customer in every customer parameter."""
    given = dict(args) if isinstance(args, Mapping) else {}
    found = ctx.registry.lookup(skill)
    params = found.metadata.parameters if found is not None else {}
    for name in ctx.domain.planning.customer_args:
        given.pop(name, None)
        if name in params:
            given[name] = user_id
    return given


def skill_request(
    whose: Whose, skill: str, args: dict[str, Any], approval: Approval | None = None
) -> SkillRequest:
    """The runtime request for one agent call, under the task's audit and task ids."""
    return SkillRequest(
        skill_id=skill,
        args=args,
        role=whose.task.role,
        user_id=whose.user_id,
        thread_id=whose.thread_id,
        run_id=whose.audit_id,
        task_id=whose.task.id,
        node=f"role_{whose.task.role}",
        audit_id=whose.audit_id,
        step=whose.step,
        approval=approval,
    )


def recorded(skill: str, args: dict[str, Any], result: SkillResult) -> AgentCall:
    """The call as the findings keep it."""
    return AgentCall(
        skill=skill,
        args=args,
        status="succeeded" if result.ok else "failed",
        payload=result.payload if result.ok else None,
        error_code=result.error_code,
    )


def approval_request(
    whose: Whose, skill: str, args: dict[str, Any], args_hash: str, reason: str
) -> ApprovalRequest:
    """The operator's question about one call; its id is derived from the call, so a
    re-run asks the same question."""
    seed = f"{whose.audit_id}/{whose.task.id}/{skill}/{args_hash}"
    return ApprovalRequest(
        id="apr-" + uuid.uuid5(uuid.NAMESPACE_URL, seed).hex[:12],
        kind="approval",
        task_id=whose.task.id,
        skill=skill,
        risk="high",
        args=args,
        args_hash=args_hash,
        reason=reason,
        audit_id=whose.audit_id,
    )


def confirmation_request(
    whose: Whose, skill: str, args: dict[str, Any], args_hash: str
) -> ConfirmationRequest:
    """The customer's question about one call: the turn ends with it."""
    return ConfirmationRequest(task_id=whose.task.id, skill=skill, args=args, args_hash=args_hash)
