"""Result check: every successful payload must validate against the skill's
declared result model (`EXECUTOR.output`).

It sits inside the circuit breaker, so a skill answering malformed results
trips it like any unhealthy dependency, and outside retry, because the same
code answers the same shape again. A mismatch is `ResultInvalid`; the audit
row keeps where the payload failed (field paths and messages, never values).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from skills.contract import SkillResult
from skills.errors import ResultInvalid
from skills.middleware.call import Call, Next

MAX_PROBLEMS = 5


def check_result(skill_id: str, model: type[BaseModel], payload: Any) -> None:
    """Raise `ResultInvalid` unless `payload` is a valid `model`."""
    try:
        model.model_validate(payload)
    except ValidationError as exc:
        raise ResultInvalid(skill_id, model.__name__, _problems(exc)) from None


class ResultCheck:
    """Turn a successful but malformed result into a typed failure."""

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        try:
            result = await next(call)
            if result.ok:
                check_result(call.skill_id, call.skill.output, result.payload)
        except ResultInvalid as exc:
            call.trace.detail["result_errors"] = exc.problems
            raise
        return result


def _problems(exc: ValidationError) -> list[str]:
    return [
        f"{'.'.join(str(part) for part in error['loc']) or '(root)'}: {error['msg']}"
        for error in exc.errors(include_input=False, include_url=False)[:MAX_PROBLEMS]
    ]
