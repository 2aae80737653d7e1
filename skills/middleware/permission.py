"""Permission: a role runs only skills its `execute` list names and `deny` does
not, and a customer-scoped skill runs only for a customer or an operator."""

from __future__ import annotations

from skills.contract import SkillMetadata, SkillResult
from skills.errors import IdentityRequired, PermissionDeniedError
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
        req = call.request
        if call.metadata.privacy_level in _SCOPED and req.user_id is None and not req.operator:
            # Without a customer, ownership checks have nobody to check against.
            raise IdentityRequired(
                f"{call.skill_id} reads or changes a customer's records; call it for a"
                " customer (user_id) or as a named operator"
            )
        return await next(call)


_SCOPED = frozenset({"customer", "sensitive"})
