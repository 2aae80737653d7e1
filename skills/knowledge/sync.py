"""Load the knowledge files into Postgres: an idempotent upsert.

Running it twice changes nothing the second time (documents are compared by
content hash); documents and partitions removed from disk are deleted.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from checkpoints import knowledge
from skills.knowledge.documents import (
    KnowledgeDocument,
    PartitionSpec,
    load_knowledge,
)
from skills.knowledge.tokenize import cjk_tsvector, strip_cjk


@dataclass(frozen=True)
class SyncReport:
    """What one sync changed."""

    partitions: int
    inserted: int
    updated: int
    unchanged: int
    deleted: int


async def sync_knowledge(conn: knowledge.Conn, root: Path | str) -> SyncReport:
    """Upsert every partition and document under `root` in one transaction."""
    # Parse everything before touching the database, off the event loop (file reads).
    specs = await asyncio.to_thread(load_knowledge, root)
    wanted = {_partition_row(s) for s in specs}
    documents = {(d.partition, d.slug, d.content_hash) for s in specs for d in s.documents}
    if await knowledge.stored(conn) == (wanted, documents):
        # As synced already (every process start finds it so): no write transaction.
        return SyncReport(len(specs), 0, 0, len(documents), 0)
    counts = {"inserted": 0, "updated": 0, "unchanged": 0}
    async with conn.transaction():
        deleted = await knowledge.delete_missing(
            conn,
            [f"{s.name}/{d.slug}" for s in specs for d in s.documents],
            [s.name for s in specs],
        )
        for spec in specs:
            await knowledge.upsert_partition(conn, _partition_row(spec))
            for doc in spec.documents:
                counts[await knowledge.upsert_document(conn, _document_row(doc))] += 1
    return SyncReport(
        len(specs), counts["inserted"], counts["updated"], counts["unchanged"], deleted
    )


def _partition_row(spec: PartitionSpec) -> knowledge.PartitionRow:
    return knowledge.PartitionRow(
        name=spec.name,
        indexed_fields=tuple(spec.indexed_fields),
        last_updated=spec.last_updated,
        description=spec.description,
        document_count=len(spec.documents),
    )


def _document_row(doc: KnowledgeDocument) -> knowledge.DocumentRow:
    head = " ".join((doc.title, *doc.keywords, str(doc.fields.get("topic", ""))))
    topic = doc.fields.get("topic")
    return knowledge.DocumentRow(
        partition=doc.partition,
        slug=doc.slug,
        title=doc.title,
        lang=doc.lang,
        topic=None if topic is None else str(topic),
        fields=doc.fields,
        body=doc.body,
        content_hash=doc.content_hash,
        last_updated=doc.last_updated,
        head_en=strip_cjk(head),
        body_en=strip_cjk(doc.body),
        cjk=cjk_tsvector(((head, "A"), (doc.body, "B"))),
    )
