"""Risk gate: forbidden never runs, high needs an approval of these exact
arguments, medium runs with a notice.

An executor may define `risk_for(args, ctx) -> RiskLevel` when the risk
depends on the arguments (a notification to the customer's own address is
medium, to anybody else high); otherwise the metadata's `risk` applies.
"""

from __future__ import annotations

from skills.contract import RiskLevel, SkillResult
from skills.errors import ApprovalRequired, ForbiddenOperation
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

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        risk = effective_risk(call)
        call.trace.detail["risk"] = risk
        if risk == "forbidden":
            raise ForbiddenOperation(
                f"{call.skill_id} is a forbidden operation; no role or approval can run it",
                skill=call.skill_id,
            )
        if risk == "high":
            self._require_approval(call)
        elif risk == "medium":
            call.trace.add_notice(f"{call.skill_id} is a medium-risk operation and was logged")
        return await next(call)

    @staticmethod
    def _require_approval(call: Call) -> None:
        approval = call.request.approval
        hashed = call.trace.args_hash
        if approval is not None and (approval.skill_id, approval.args_hash) == (
            call.skill_id,
            hashed,
        ):
            call.trace.approval_id = approval.approval_id
            return
        reason = f"{call.skill_id} is high risk and needs a human approval of these arguments"
        if approval is not None:
            reason = f"the approval {approval.approval_id} covers other arguments; {reason}"
        raise ApprovalRequired(call.skill_id, dict(call.args), hashed, reason)
