"""Knowledge: the skill's knowledge dependencies must be readable by the role."""

from __future__ import annotations

from collections.abc import Callable

from skills.contract import SkillMetadata, SkillResult
from skills.errors import KnowledgeUnavailable, SkillLoadError
from skills.middleware.call import Call, Next, RoleLike

KnowledgeCheck = Callable[[SkillMetadata, RoleLike], None]
"""Raises `SkillLoadError` when `role` cannot see a partition the skill needs."""


def no_knowledge_check(metadata: SkillMetadata, role: RoleLike) -> None:
    """The default: no knowledge partitions are configured, so nothing to check."""


class Knowledge:
    """Turn a start-up style `SkillLoadError` into a per-call failure with its own code."""

    def __init__(self, check: KnowledgeCheck = no_knowledge_check) -> None:
        self._check = check

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        try:
            self._check(call.metadata, call.role)
        except SkillLoadError as exc:
            raise KnowledgeUnavailable(str(exc), skill=call.skill_id) from exc
        return await next(call)
