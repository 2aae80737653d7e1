"""Required context: a role's binding of a skill may name context keys the
call must carry (`required_context: [user_id]`); a call without them fails
with `ContextMissing` before anything runs.

`user_id`, `thread_id`, `audit_id` and `locale` are fields of the request
(`thread_id` "adhoc" counts as absent). Any other key a domain declares (an
`order_id`) is the record the call acts on, read from its validated arguments.
"""

from __future__ import annotations

from skills.contract import SkillRequest, SkillResult
from skills.errors import ContextMissing
from skills.middleware.call import Call, Next


def context_value(call: Call, key: str) -> object:
    """The call's value for context key `key`, None when it has none."""
    fields = _request_context(call.request)
    if key in fields:
        return fields[key]
    return call.args.get(key)


class RequiredContext:
    """Refuse a call that lacks a context key its binding requires."""

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        required = call.role.required_context(call.skill_id)
        missing = [key for key in required if context_value(call, key) in (None, "")]
        if missing:
            raise ContextMissing(call.skill_id, call.role.name, missing)
        return await next(call)


def _request_context(request: SkillRequest) -> dict[str, str | None]:
    return {
        "user_id": request.user_id,
        "thread_id": None if request.thread_id == "adhoc" else request.thread_id,
        "audit_id": request.audit_id,
        "locale": request.locale,
    }
