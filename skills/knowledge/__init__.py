"""Knowledge partitions: the project's own documents, synced into Postgres,
searched per role in English and Chinese, and checked when skills load."""

from skills.knowledge.check import (
    KnowledgeCatalog,
    PartitionInfo,
    bind_knowledge_check,
    fetch_catalog,
    knowledge_check,
)
from skills.knowledge.documents import load_knowledge
from skills.knowledge.search import SearchHit, search_knowledge
from skills.knowledge.sync import SyncReport, sync_knowledge

__all__ = [
    "KnowledgeCatalog",
    "PartitionInfo",
    "SearchHit",
    "SyncReport",
    "bind_knowledge_check",
    "fetch_catalog",
    "knowledge_check",
    "load_knowledge",
    "search_knowledge",
    "sync_knowledge",
]
