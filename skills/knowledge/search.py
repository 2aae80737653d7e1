"""Role-scoped full-text search over knowledge documents, English and Chinese.

The caller passes the partitions the role may read; nothing outside them is
ever returned, whatever the query says.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict

from checkpoints import knowledge
from skills.knowledge.tokenize import best_passage, cjk_tsquery, query_terms, strip_cjk

MAX_LIMIT = 20


class SearchHit(BaseModel):
    """One matching document, with the passage that best answers the query."""

    model_config = ConfigDict(frozen=True)

    partition: str
    slug: str
    title: str
    lang: str
    topic: str | None
    rank: float
    snippet: str


async def search_knowledge(
    conn: knowledge.Conn, query: str, partitions: Iterable[str], limit: int = 5
) -> list[SearchHit]:
    """Best matches for `query` among documents of `partitions`, best first."""
    allowed = sorted(set(partitions))
    english = strip_cjk(query).strip()
    bigrams = cjk_tsquery(query)
    if not allowed or (not english and bigrams is None):
        return []
    rows = await knowledge.search(
        conn,
        english=english,
        cjk=bigrams,
        partitions=allowed,
        limit=max(1, min(limit, MAX_LIMIT)),
    )
    terms = query_terms(query)
    return [_hit(row, terms) for row in rows]


def _hit(row: dict[str, Any], terms: frozenset[str]) -> SearchHit:
    return SearchHit(
        partition=row["partition"],
        slug=row["slug"],
        title=row["title"],
        lang=row["lang"],
        topic=row["topic"],
        rank=round(float(row["rank"]), 6),
        snippet=best_passage(row["body"], terms),
    )
