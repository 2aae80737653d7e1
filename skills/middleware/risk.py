"""Risk gate: forbidden never runs, high needs an operator's approval of these
exact arguments, medium runs with a notice.

An approval is verified where it acts: the `approvals` table must hold it as
decided by an operator for this thread, task, skill and args hash, and not
consumed by another call. An `Approval` object on the request is only a
claim; a forged, reused or mismatched one is refused (and audited by the
audit link like any failure).

An executor may define `risk_for(args, ctx) -> RiskLevel` when the risk
depends on the arguments (a notification to the customer's own address is
medium, to anybody else high); otherwise the metadata's `risk` applies.
"""

from __future__ import annotations

from checkpoints import approvals
from checkpoints.opening import Pool
from skills.contract import RiskLevel, SkillResult
from skills.errors import ApprovalInvalid, ApprovalRequired, ForbiddenOperation
from skills.hashing import idempotency_key
from skills.middleware.call import Call, Next


def effective_risk(call: Call) -> RiskLevel:
    """The executor's `risk_for` verdict when it has one, else the declared risk."""
    risk_for = getattr(call.executor, "risk_for", None)
    if risk_for is None:
        return call.metadata.risk
    level: RiskLevel = risk_for(call.args, call.ctx)
    return level


class RiskGate:
    """Stop or annotate calls by their effective risk."""

    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        risk = effective_risk(call)
        call.trace.detail["risk"] = risk
        if risk == "forbidden":
            raise ForbiddenOperation(
                f"{call.skill_id} is a forbidden operation; no role or approval can run it",
                skill=call.skill_id,
            )
        if risk == "high":
            await self._require_approval(call)
        elif risk == "medium":
            call.trace.add_notice(f"{call.skill_id} is a medium-risk operation and was logged")
        return await next(call)

    async def _require_approval(self, call: Call) -> None:
        approval = call.request.approval
        hashed = call.trace.args_hash
        reason = f"{call.skill_id} is high risk and needs an operator's approval of these arguments"
        if approval is None:
            raise ApprovalRequired(call.skill_id, dict(call.args), hashed, reason)
        if (approval.skill_id, approval.args_hash) != (call.skill_id, hashed):
            reason = f"the approval {approval.approval_id} covers other arguments; {reason}"
            raise ApprovalRequired(call.skill_id, dict(call.args), hashed, reason)
        req = call.request
        target = approvals.CallToApprove(
            approval_id=approval.approval_id,
            thread_id=req.thread_id,
            task_id=req.task_id,
            skill=call.skill_id,
            args_hash=hashed,
            effect_key=idempotency_key(req.run_id, req.task_id, call.skill_id, hashed),
        )
        async with self._pool.connection() as conn:
            allowed = await approvals.consume(conn, target)
        if not allowed:
            raise ApprovalInvalid(
                f"{call.skill_id}: approval {approval.approval_id} is not an operator's decision"
                " on this call (unknown, undecided, for another call, or already used)",
                approval_id=approval.approval_id,
            )
        call.trace.approval_id = approval.approval_id
