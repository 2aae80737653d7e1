"""The `knowledge_partitions` and `knowledge_documents` tables: synced files and their search.

The skill runtime (`skills.knowledge`) parses the files and builds the search
vectors' text; this module is the only one that reads or writes the rows.
Connections may return dict or tuple rows; both are read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

import psycopg
from psycopg.types.json import Jsonb

Conn = psycopg.AsyncConnection[Any]
Upserted = Literal["inserted", "updated", "unchanged"]


@dataclass(frozen=True)
class PartitionRow:
    """One partition as stored."""

    name: str
    indexed_fields: tuple[str, ...]
    last_updated: date
    description: str = ""
    document_count: int = 0


@dataclass(frozen=True)
class DocumentRow:
    """One document as stored; `head_en`/`body_en`/`cjk` are the search vectors' input."""

    partition: str
    slug: str
    title: str
    lang: str
    topic: str | None
    fields: Mapping[str, Any]
    body: str
    content_hash: str
    last_updated: date
    head_en: str
    body_en: str
    cjk: str


async def upsert_partition(conn: Conn, row: PartitionRow) -> None:
    """Insert or refresh one partition."""
    await conn.execute(
        _UPSERT_PARTITION,
        {
            "name": row.name,
            "description": row.description,
            "fields": list(row.indexed_fields),
            "last_updated": row.last_updated,
            "count": row.document_count,
        },
    )


async def upsert_document(conn: Conn, row: DocumentRow) -> Upserted:
    """Insert a document, or update it when its content hash changed."""
    params = {
        "partition": row.partition,
        "slug": row.slug,
        "title": row.title,
        "lang": row.lang,
        "topic": row.topic,
        "fields": Jsonb(dict(row.fields)),
        "body": row.body,
        "hash": row.content_hash,
        "last_updated": row.last_updated,
        "head_en": row.head_en,
        "body_en": row.body_en,
        "cjk": row.cjk,
    }
    cur = await conn.execute(_UPSERT_DOCUMENT, params)
    found = await cur.fetchone()
    if found is None:
        return "unchanged"
    return "inserted" if _values(cur, found)["inserted"] else "updated"


async def delete_missing(conn: Conn, documents: Sequence[str], partitions: Sequence[str]) -> int:
    """Delete documents (`partition/slug`) and partitions not in the lists; documents deleted."""
    cur = await conn.execute(
        "DELETE FROM knowledge_documents WHERE partition || '/' || slug <> ALL(%s)",
        (list(documents),),
    )
    await conn.execute(
        "DELETE FROM knowledge_partitions WHERE name <> ALL(%s)", (list(partitions),)
    )
    return cur.rowcount


async def stored(conn: Conn) -> tuple[set[PartitionRow], set[tuple[str, str, str]]]:
    """What is synced now: every partition, and every document's (partition, slug,
    content hash)."""
    cur = await conn.execute(
        "SELECT name, indexed_fields, last_updated, description, document_count"
        " FROM knowledge_partitions"
    )
    found = {
        PartitionRow(
            r["name"],
            tuple(r["indexed_fields"]),
            r["last_updated"],
            r["description"],
            r["document_count"],
        )
        for r in (_values(cur, row) for row in await cur.fetchall())
    }
    cur = await conn.execute("SELECT partition, slug, content_hash FROM knowledge_documents")
    documents = {
        (r["partition"], r["slug"], r["content_hash"])
        for r in (_values(cur, row) for row in await cur.fetchall())
    }
    return found, documents


async def partitions(conn: Conn) -> list[PartitionRow]:
    """Every synced partition, by name."""
    cur = await conn.execute(
        "SELECT name, indexed_fields, last_updated FROM knowledge_partitions ORDER BY name"
    )
    rows = [_values(cur, r) for r in await cur.fetchall()]
    return [PartitionRow(r["name"], tuple(r["indexed_fields"]), r["last_updated"]) for r in rows]


async def search(
    conn: Conn, *, english: str, cjk: str | None, partitions: Sequence[str], limit: int
) -> list[dict[str, Any]]:
    """Documents of `partitions` matching the English or CJK query, best first, with `rank`."""
    params = {"en": english, "cjk": cjk, "partitions": list(partitions), "limit": limit}
    cur = await conn.execute(_SEARCH, params)
    return [_values(cur, row) for row in await cur.fetchall()]


def _values(cur: psycopg.AsyncCursor[Any], row: Any) -> dict[str, Any]:
    if isinstance(row, dict):
        return row
    names = [c.name for c in cur.description or ()]
    return dict(zip(names, row, strict=True))


_UPSERT_PARTITION = """
INSERT INTO knowledge_partitions (name, description, indexed_fields, last_updated, document_count)
VALUES (%(name)s, %(description)s, %(fields)s, %(last_updated)s, %(count)s)
ON CONFLICT (name) DO UPDATE SET
    description = EXCLUDED.description, indexed_fields = EXCLUDED.indexed_fields,
    last_updated = EXCLUDED.last_updated, document_count = EXCLUDED.document_count,
    synced_at = now()
"""

_UPSERT_DOCUMENT = """
INSERT INTO knowledge_documents AS d
    (partition, slug, title, lang, topic, fields, body, content_hash, last_updated,
     search_en, search_cjk)
VALUES (%(partition)s, %(slug)s, %(title)s, %(lang)s, %(topic)s, %(fields)s, %(body)s,
        %(hash)s, %(last_updated)s,
        setweight(to_tsvector('english', %(head_en)s), 'A')
            || setweight(to_tsvector('english', %(body_en)s), 'B'),
        %(cjk)s::tsvector)
ON CONFLICT (partition, slug) DO UPDATE SET
    title = EXCLUDED.title, lang = EXCLUDED.lang, topic = EXCLUDED.topic,
    fields = EXCLUDED.fields, body = EXCLUDED.body, content_hash = EXCLUDED.content_hash,
    last_updated = EXCLUDED.last_updated, search_en = EXCLUDED.search_en,
    search_cjk = EXCLUDED.search_cjk, updated_at = now()
WHERE d.content_hash IS DISTINCT FROM EXCLUDED.content_hash
RETURNING (xmax = 0) AS inserted
"""

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
