"""Role-scoped full-text search over knowledge documents, English and Chinese.

The caller passes the partitions the role may read; nothing outside them is
ever returned, whatever the query says.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import psycopg
from pydantic import BaseModel, ConfigDict

from skills.knowledge.tokenize import best_passage, cjk_tsquery, query_terms, strip_cjk

MAX_LIMIT = 20

# plainto_tsquery ANDs its terms; natural questions rarely share every word
# with the answer, so the terms are OR-ed and ts_rank orders the hits.
_SEARCH = """
WITH q AS (
    SELECT nullif(replace(plainto_tsquery('english', %(en)s)::text, ' & ', ' | '), '')::tsquery
               AS en,
           %(cjk)s::tsquery AS cjk
)
SELECT d.partition, d.slug, d.title, d.lang, d.topic, d.body,
       coalesce(ts_rank(d.search_en, q.en), 0) + coalesce(ts_rank(d.search_cjk, q.cjk), 0)
           AS rank
FROM knowledge_documents d, q
WHERE d.partition = ANY(%(partitions)s)
  AND (d.search_en @@ q.en OR d.search_cjk @@ q.cjk)
ORDER BY rank DESC, d.partition, d.slug
LIMIT %(limit)s
"""


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
    conn: psycopg.AsyncConnection[Any], query: str, partitions: Iterable[str], limit: int = 5
) -> list[SearchHit]:
    """Best matches for `query` among documents of `partitions`, best first."""
    allowed = sorted(set(partitions))
    english = strip_cjk(query).strip()
    bigrams = cjk_tsquery(query)
    if not allowed or (not english and bigrams is None):
        return []
    params = {
        "en": english,
        "cjk": bigrams,
        "partitions": allowed,
        "limit": max(1, min(limit, MAX_LIMIT)),
    }
    cur = await conn.execute(_SEARCH, params)
    rows = await cur.fetchall()
    terms = query_terms(query)
    return [_hit(_as_dict(cur, row), terms) for row in rows]


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


def _as_dict(cur: psycopg.AsyncCursor[Any], row: Any) -> dict[str, Any]:
    if isinstance(row, dict):
        return row
    names = [c.name for c in cur.description or ()]
    return dict(zip(names, row, strict=True))
