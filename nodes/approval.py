"""The approval node: the only place that calls `interrupt()`.

Every pending request (high-risk calls and escalations) is asked in ONE
interrupt whose value carries LangChain v1's human-in-the-loop request
(`action_requests`, `review_configs`) and rolegraph's typed `requests`
(`nodes.hitl`); the resume value maps request ids to decisions, or lists
LangChain decisions in order (`nodes.resume_value`). Only an operator's answer counts: the identity of
whoever resumed the thread (`langgraph_auth_user`) is checked here, so a
customer resuming their own thread — through the server, the Python API or
any client — is refused, audited, and asked again. Every decision records
its approver in `approvals` and in the audit chain.

The node re-runs from its start on resume, so the only side effect before
`interrupt()` — recording the requests for the inbox, and queueing the
operators' notice of each new one in the same transaction — is an
idempotent insert.
"""

from __future__ import annotations

import uuid
from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from checkpoints import approvals
from checkpoints.audit import AuditEvent, record_event
from checkpoints.opening import Pool
from nodes.context import ADHOC, SupportContext, run_position
from nodes.contracts import ApprovalRequest, Grant, HumanDecision, TaskOutcome
from nodes.errors import AnswerRefused
from nodes.hitl import interrupt_value
from nodes.identity import Identity, identity_of
from nodes.resume_value import read_answer
from nodes.state import (
    GrantData,
    HumanDecisionData,
    StateUpdate,
    SupportState,
    TaskOutcomeData,
    plan_of,
    stored,
)
from skills.faults import crash_point
from skills.hashing import args_hash
from skills.outbox.operator_settings import OperatorNotices
from skills.outbox.operators import notify_operators

_STATUS: dict[str, approvals.DecisionStatus] = {
    "approve": "approved",
    "reject": "rejected",
    "edit": "edited",
    "reply": "answered",
}


async def approval(state: SupportState, runtime: Runtime[SupportContext]) -> StateUpdate:
    """Ask an operator about every pending request; apply the answers given."""
    pending = [ApprovalRequest.model_validate(p) for p in (state.get("pending") or {}).values()]
    if not pending:
        return {}
    ctx = runtime.context
    thread_id = run_position().thread_id or ADHOC
    recorded = await _recorded(ctx, thread_id, pending)
    if recorded:
        # Decided before a crash lost the checkpoint that carried the answer:
        # apply the operator's recorded decision instead of asking again.
        return apply_decisions(pending, recorded)
    await record_requests(ctx.pool, thread_id, pending, state.get("user_id"), ctx.operator_notices)
    answer = interrupt(interrupt_value(pending, ctx.registry))
    approver = identity_of(get_config())
    if approver is None or not approver.is_operator or approver.subject == state.get("user_id"):
        return await _refuse_approver(ctx, state, thread_id, approver)
    try:
        decisions = read_answer(answer, pending, ctx.registry)
    except AnswerRefused as exc:
        # Raising here would store the bad value as this task's answer and
        # replay it on every later resume: the request is asked again instead.
        # Clients get the error up front (graphs.auth, graphs.api).
        return {"trace": [f"approval: refused the answer ({exc}); asked again"]}
    await record_decisions(ctx, state, thread_id, pending, decisions, approver)
    crash_point("after_decision_recorded")
    return apply_decisions(pending, decisions)


async def _recorded(
    ctx: SupportContext, thread_id: str, pending: list[ApprovalRequest]
) -> dict[str, HumanDecision]:
    async with ctx.pool.connection() as conn:
        rows = await approvals.recorded_decisions(conn, thread_id, [p.id for p in pending])
    verbs = {status: verb for verb, status in _STATUS.items()}
    return {
        r.request_id: HumanDecision(
            decision=verbs[r.status],  # type: ignore[arg-type]
            args=r.args if r.status == "edited" else None,
            message=r.message,
        )
        for r in rows
    }


def apply_decisions(
    pending: list[ApprovalRequest], decisions: dict[str, HumanDecision]
) -> StateUpdate:
    update: StateUpdate = {"pending": {}, "decided": {}, "grants": {}, "outcomes": {}}
    notes = []
    for request in pending:
        decision = decisions.get(request.id)
        if decision is None:
            continue  # unanswered requests stay pending and are asked again
        update["pending"][request.id] = None
        update["decided"][request.id] = stored(decision, HumanDecisionData)
        notes.append(f"{request.id}={decision.decision}")
        if request.kind == "escalation":
            update["human_reply"] = decision.message or "a colleague has reviewed your case"
        elif decision.decision in ("approve", "edit"):
            update["grants"][request.task_id or ""] = stored(
                grant_for(request, decision), GrantData
            )
        else:
            update["outcomes"][request.task_id or ""] = stored(_rejected(request), TaskOutcomeData)
    update["trace"] = [f"approval: {', '.join(notes) or 'no decision'}"]
    return update


def grant_for(request: ApprovalRequest, decision: HumanDecision) -> Grant:
    """The grant an approved (or edited) request gives its task."""
    args = ran_args(request, decision)
    return Grant(
        skill_id=request.skill or "", args=args, args_hash=args_hash(args), approval_id=request.id
    )


def _rejected(request: ApprovalRequest) -> TaskOutcome:
    return TaskOutcome(
        task_id=request.task_id or "",
        skill=request.skill or "",
        role="human",
        status="rejected",
        error="rejected by a human reviewer; nothing was changed",
        attempts=0,
    )


def ran_args(request: ApprovalRequest, decision: HumanDecision) -> dict[str, Any]:
    """The arguments an approved call runs with: the edited ones, else as asked."""
    return decision.args if decision.decision == "edit" and decision.args else request.args


def escalation_request(audit_id: str, reason: str, evidence: tuple[str, ...]) -> ApprovalRequest:
    request_id = "esc-" + uuid.uuid5(uuid.NAMESPACE_URL, f"{audit_id}/{reason}").hex[:12]
    return ApprovalRequest(
        id=request_id, kind="escalation", reason=reason, evidence=evidence, audit_id=audit_id
    )


async def record_requests(
    pool: Pool,
    thread_id: str,
    pending: list[ApprovalRequest],
    user_id: str | None,
    notices: OperatorNotices | None = None,
) -> None:
    """Record the requests for the inbox and, in the same transaction, queue the
    operators' notice of each one recorded now (a re-run records and queues nothing)."""
    async with pool.connection() as conn, conn.transaction():
        for p in pending:
            row = approvals.RequestRow(
                request_id=p.id,
                thread_id=thread_id,
                kind=p.kind,
                audit_id=p.audit_id,
                reason=p.reason,
                task_id=p.task_id,
                skill=p.skill,
                risk=p.risk,
                args=p.args,
                args_hash=p.args_hash,
                user_id=user_id,
            )
            if await approvals.record_request(conn, row) and notices is not None:
                await notify_operators(conn, notices, row)


async def record_decisions(
    ctx: SupportContext,
    state: SupportState,
    thread_id: str,
    pending: list[ApprovalRequest],
    decisions: dict[str, HumanDecision],
    approver: Identity,
) -> None:
    by_id = {p.id: p for p in pending}
    roles = {t.id: t.role for t in plan_of(state).tasks}
    async with ctx.pool.connection() as conn, conn.transaction():
        for request_id, d in decisions.items():
            request = by_id[request_id]
            ran = ran_args(request, d) if request.kind == "approval" else None
            hashed = args_hash(ran) if ran is not None and d.decision != "reject" else None
            status = _STATUS[d.decision]
            recorded = await approvals.record_decision(
                conn,
                request_id,
                status=status,
                decided_by=approver.label,
                args=ran,
                args_hash=hashed,
                message=d.message,
            )
            if not recorded:
                continue  # decided before a crash; this re-run applies the same answer
            await record_event(
                conn,
                AuditEvent(
                    audit_id=state.get("audit_id") or request.audit_id,
                    thread_id=thread_id,
                    step=run_position().step,
                    node="approval",
                    role=roles.get(request.task_id or ""),
                    skill=request.skill,
                    args_hash=hashed,
                    status=status,
                    approval_id=request_id,
                    detail={"approver": approver.label, "message": d.message},
                ),
            )


async def _refuse_approver(
    ctx: SupportContext, state: SupportState, thread_id: str, approver: Identity | None
) -> StateUpdate:
    # Never for their own action: an operator named like the customer is refused too.
    await _audit_refused(ctx, state, thread_id, approver)
    who = approver.label if approver else "an unauthenticated caller"
    return {"trace": [f"approval: refused an answer from {who}; only operators decide"]}


async def _audit_refused(
    ctx: SupportContext, state: SupportState, thread_id: str, who: Identity | None
) -> None:
    async with ctx.pool.connection() as conn:
        await record_event(
            conn,
            AuditEvent(
                audit_id=state.get("audit_id") or "unknown",
                thread_id=thread_id,
                node="approval",
                status="approval_refused",
                error_code="not_an_operator",
                detail={"by": who.label if who else None},
            ),
        )
