"""Executor of search_knowledge_v1: full-text search over the partitions the
skill declares as knowledge dependencies.

The knowledge check guarantees, before any call, that the calling role can
read every declared partition; searching only those keeps every result inside
the role's slice of the knowledge base.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domains.retail.results import KnowledgeSearch
from skills import yaml_files
from skills.contract import SkillContext, SkillMetadata
from skills.errors import SkillValidationError
from skills.knowledge.inputs import optional_int, reject_unknown, require_text
from skills.knowledge.search import search_knowledge

_METADATA = SkillMetadata.model_validate(
    yaml_files.safe_load((Path(__file__).parent / "metadata.yaml").read_text(encoding="utf-8"))
)
PARTITIONS = tuple(dep.partition for dep in _METADATA.knowledge_dependencies)
MAX_RESULTS = _METADATA.resource_limits.max_records
_ARGS = frozenset({"query", "partitions", "limit"})


class SearchKnowledge:
    """Validate, search, and never roll back (read-only)."""

    output = KnowledgeSearch

    def validate_input(self, args: Mapping[str, Any]) -> dict[str, Any]:
        reject_unknown(args, _ARGS)
        return {
            "query": require_text(args, "query"),
            "partitions": _partitions(args.get("partitions")),
            "limit": optional_int(args, "limit", default=5, maximum=MAX_RESULTS),
        }

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> Any:
        async with ctx.pool.connection() as conn:
            hits = await search_knowledge(conn, args["query"], args["partitions"], args["limit"])
        return {
            "query": args["query"],
            "partitions": list(args["partitions"]),
            "results": [hit.model_dump() for hit in hits],
        }

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        return None


def _partitions(value: Any) -> list[str]:
    if value is None:
        return list(PARTITIONS)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise SkillValidationError(
            "partitions must be a non-empty list of names", field="partitions"
        )
    unknown = sorted(set(value) - set(PARTITIONS))
    if unknown:
        allowed = ", ".join(PARTITIONS)
        raise SkillValidationError(
            f"partition {unknown[0][:40]!r} is not searchable here; use {allowed}",
            field="partitions",
        )
    return sorted(set(value))


EXECUTOR = SearchKnowledge()
