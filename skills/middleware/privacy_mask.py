"""Privacy: the skill's `privacy_level` decides which copies of a result are
masked (see `skills/contract.py` for the levels, `skills/privacy.py` for how).

The audit row gets the whole result (`detail.result`), masked unless public:
it is where a truncated result can be read in full. A `sensitive` result is
masked in what the caller receives too, so no state, answer or prompt holds
its raw values. Outside the idempotency ledger, so replays are masked alike.
"""

from __future__ import annotations

from skills.contract import SkillResult
from skills.middleware.call import Call, Next
from skills.privacy import MASKED_IN_RESULT, audit_copy, disclosed


class PrivacyMask:
    """Record the audit copy of a result; mask the caller's copy when sensitive."""

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        result = await next(call)
        if not result.ok:
            return result
        level = call.metadata.privacy_level
        call.trace.detail["result"] = audit_copy(level, result.payload)
        if level in MASKED_IN_RESULT:
            return result.model_copy(update={"payload": disclosed(level, result.payload)})
        return result
