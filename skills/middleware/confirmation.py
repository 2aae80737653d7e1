"""Customer confirmation: a consequential call runs only once the customer said yes
to exactly these arguments in the conversation.

Which skills need it is declared per skill (`confirmation: customer` in
`metadata.yaml`, the domain's policy). The proof is read where it acts: the
`customer_confirmed` audit row intake writes when the customer answers a
confirmation question with an explicit yes, for this turn, skill and args
hash. Nothing on the request can claim it, so neither a plan nor a model can
skip the question; a changed argument (a different order, amount or payment
method) is a different call and is asked again. Only calls made for a customer
are asked about: an operator's back-office call has no conversation. An
operator's edit of a confirmed call (which may not change the record it acts
on) is not asked again.
"""

from __future__ import annotations

from checkpoints.approvals import asked_hash
from checkpoints.audit import has_confirmation
from checkpoints.opening import Pool
from skills.contract import SkillResult
from skills.errors import ConfirmationRequired
from skills.middleware.call import Call, Next
from skills.middleware.risk import effective_risk


class CustomerConfirmation:
    """Stop a call that needs the customer's yes until the turn holds it."""

    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        # A back-office call an operator makes without a customer (a replay, a repair)
        # has no conversation to confirm in; the operator's approval covers it.
        acts_for_customer = call.request.user_id is not None
        # A forbidden call is refused by the risk gate; the customer is never asked about it.
        askable = effective_risk(call) != "forbidden"
        needs_yes = call.metadata.confirmation == "customer" and acts_for_customer and askable
        if needs_yes and not await self._confirmed(call):
            raise ConfirmationRequired(
                call.skill_id,
                dict(call.args),
                call.trace.args_hash,
                f"{call.skill_id} changes the customer's records; they confirm these arguments first",
            )
        return await next(call)

    async def _confirmed(self, call: Call) -> bool:
        req = call.request
        async with self._pool.connection() as conn:
            if await has_confirmation(conn, req.audit_id, call.skill_id, call.trace.args_hash):
                return True
            if req.approval is None:
                return False
            # An operator's edit of a confirmed call (never of the record it acts on) stands:
            # the customer confirmed the call the approval request asked about.
            asked = await asked_hash(conn, req.approval.approval_id, req.thread_id)
            return asked is not None and await has_confirmation(
                conn, req.audit_id, call.skill_id, asked
            )
