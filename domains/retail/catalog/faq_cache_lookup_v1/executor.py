"""Executor of faq_cache_lookup_v1: FAQ answers from the partition files.

It touches no database, so it keeps working when search_knowledge_v1 cannot.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domains.retail.results import FaqLookup
from skills.contract import SkillContext
from skills.knowledge.faq_cache import FaqCache
from skills.knowledge.inputs import optional_int, reject_unknown, require_text

MAX_ANSWERS = 5
_ARGS = frozenset({"question", "limit"})
ROOT_SETTING = "knowledge_root"


# The pack's own partitions (domains/retail/knowledge), unless a setting names others.
KNOWLEDGE_ROOT = Path(__file__).resolve().parents[2] / "knowledge"


class FaqCacheLookup:
    """Answers from an in-process cache of the FAQ files, one cache per root."""

    output = FaqLookup

    def __init__(self) -> None:
        # The files are static for the life of the process; parsing them once is the point.
        self._caches: dict[Path, FaqCache] = {}

    def validate_input(self, args: Mapping[str, Any]) -> dict[str, Any]:
        reject_unknown(args, _ARGS)
        return {
            "question": require_text(args, "question"),
            "limit": optional_int(args, "limit", default=3, maximum=MAX_ANSWERS),
        }

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> Any:
        root = Path(ctx.settings.get(ROOT_SETTING) or KNOWLEDGE_ROOT)
        cache = self._caches.get(root)
        if cache is None:
            cache = self._caches[root] = FaqCache.from_root(root)
        matches = cache.lookup(args["question"], args["limit"])
        answers = [
            {
                "question": m.entry.question,
                "answer": m.entry.answer,
                "lang": m.entry.lang,
                "slug": m.entry.slug,
                "score": m.score,
            }
            for m in matches
        ]
        return {"question": args["question"], "answers": answers}

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        return None


EXECUTOR = FaqCacheLookup()
