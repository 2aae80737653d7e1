"""Validation: the executor normalises the arguments or rejects them."""

from __future__ import annotations

from skills.contract import SkillResult
from skills.errors import SkillValidationError
from skills.hashing import args_hash
from skills.middleware.call import Call, Next


class Validation:
    """Replace the raw arguments with the executor's normalised ones.

    From here on the call's hash is that of the normalised arguments, which
    is what approvals and the idempotency ledger are keyed by.
    """

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        try:
            args = call.executor.validate_input(call.args)
        except SkillValidationError:
            raise
        except (TypeError, ValueError, KeyError) as exc:
            # A validator that crashes on hostile input still rejected it.
            raise SkillValidationError(f"{call.skill_id}: invalid arguments ({exc})") from exc
        call.trace.args_hash = args_hash(args)
        return await next(call.with_args(args))
