"""Permission: a role runs only skills its `execute` list names and `deny` does not."""

from __future__ import annotations

from skills.contract import SkillMetadata, SkillResult
from skills.errors import PermissionDeniedError
from skills.middleware.call import Call, Next, RoleLike


def is_permitted(role: RoleLike, metadata: SkillMetadata) -> bool:
    """Exact skill ids grant; a deny entry matches the id or the bare name."""
    denied = metadata.skill_id in role.deny or metadata.name in role.deny
    return metadata.skill_id in role.execute and not denied


class Permission:
    """Refuse the call before anything else looks at its arguments."""

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        if not is_permitted(call.role, call.metadata):
            raise PermissionDeniedError(call.skill_id, call.role.name)
        return await next(call)
