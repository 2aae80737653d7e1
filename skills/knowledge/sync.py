"""Load the knowledge files into Postgres: an idempotent upsert.

Running it twice changes nothing the second time (documents are compared by
content hash); documents and partitions removed from disk are deleted.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from skills.knowledge.documents import (
    KnowledgeDocument,
    PartitionSpec,
    load_knowledge,
)
from skills.knowledge.tokenize import cjk_tsvector, strip_cjk

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


@dataclass(frozen=True)
class SyncReport:
    """What one sync changed."""

    partitions: int
    inserted: int
    updated: int
    unchanged: int
    deleted: int


async def sync_knowledge(conn: psycopg.AsyncConnection[Any], root: Path | str) -> SyncReport:
    """Upsert every partition and document under `root` in one transaction."""
    # Parse everything before touching the database, off the event loop (file reads).
    specs = await asyncio.to_thread(load_knowledge, root)
    inserted = updated = unchanged = 0
    async with conn.transaction():
        deleted = await _delete_missing(conn, specs)
        for spec in specs:
            await conn.execute(_UPSERT_PARTITION, _partition_params(spec))
            for doc in spec.documents:
                cur = await conn.execute(_UPSERT_DOCUMENT, _document_params(doc))
                row = await cur.fetchone()
                if row is None:
                    unchanged += 1
                elif _first(row):
                    inserted += 1
                else:
                    updated += 1
    return SyncReport(len(specs), inserted, updated, unchanged, deleted)


async def _delete_missing(
    conn: psycopg.AsyncConnection[Any], specs: tuple[PartitionSpec, ...]
) -> int:
    keys = [f"{s.name}/{d.slug}" for s in specs for d in s.documents]
    cur = await conn.execute(
        "DELETE FROM knowledge_documents WHERE partition || '/' || slug <> ALL(%s)", (keys,)
    )
    await conn.execute(
        "DELETE FROM knowledge_partitions WHERE name <> ALL(%s)", ([s.name for s in specs],)
    )
    return cur.rowcount


def _partition_params(spec: PartitionSpec) -> dict[str, Any]:
    return {
        "name": spec.name,
        "description": spec.description,
        "fields": list(spec.indexed_fields),
        "last_updated": spec.last_updated,
        "count": len(spec.documents),
    }


def _document_params(doc: KnowledgeDocument) -> dict[str, Any]:
    head = " ".join((doc.title, *doc.keywords, str(doc.fields.get("topic", ""))))
    return {
        "partition": doc.partition,
        "slug": doc.slug,
        "title": doc.title,
        "lang": doc.lang,
        "topic": doc.fields.get("topic"),
        "fields": Jsonb(doc.fields),
        "body": doc.body,
        "hash": doc.content_hash,
        "last_updated": doc.last_updated,
        "head_en": strip_cjk(head),
        "body_en": strip_cjk(doc.body),
        "cjk": cjk_tsvector(((head, "A"), (doc.body, "B"))),
    }


def _first(row: Any) -> Any:
    # Works for both dict rows (the pool's default) and tuple rows.
    return next(iter(row.values())) if isinstance(row, dict) else row[0]
