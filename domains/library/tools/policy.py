"""`search_policy_v1`: full-text search of the library's loan-policy partition."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domains.library.tools.results import PolicyResult
from skills.contract import SkillContext
from skills.knowledge.inputs import optional_int, reject_unknown, require_text
from skills.knowledge.search import search_knowledge

PARTITIONS = ("loan_policy",)
_ARGS = frozenset({"query", "limit"})


class PolicySearch:
    """Validate, search the partition the skill declares, never roll back."""

    output = PolicyResult

    def validate_input(self, args: Mapping[str, Any]) -> dict[str, Any]:
        reject_unknown(args, _ARGS)
        return {
            "query": require_text(args, "query"),
            "limit": optional_int(args, "limit", default=3, maximum=5),
        }

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> Any:
        async with ctx.pool.connection() as conn:
            hits = await search_knowledge(conn, args["query"], PARTITIONS, args["limit"])
        result = PolicyResult.model_validate(
            {"query": args["query"], "results": [hit.model_dump() for hit in hits]}
        )
        return result.model_dump(mode="json")

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        return None
