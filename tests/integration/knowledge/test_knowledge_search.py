"""Knowledge sync and bilingual full-text search on a real Postgres."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from checkpoints.opening import Database
from domains.retail import DOMAIN
from skills.knowledge import (
    fetch_catalog,
    search_knowledge,
    sync_knowledge,
)
from skills.registry import load_catalog
from skills.resources import kb_partitions
from skills.roles import load_roles

DEFAULT_KNOWLEDGE_ROOT = Path(__file__).resolve().parents[3] / "domains" / "retail" / "knowledge"
ROLES_DIR = Path(__file__).resolve().parents[3] / "domains" / "retail" / "roles"
CATALOG_DIR = ROLES_DIR.parent / "catalog"
KNOWLEDGE_PARTITIONS = DOMAIN.resources.knowledge
ALL = sorted(KNOWLEDGE_PARTITIONS)
SKILL_IDS = [d.name for d in DOMAIN.catalog.iterdir() if (d / "metadata.yaml").is_file()]


@pytest.fixture(scope="module", autouse=True)
async def synced(db: Database) -> None:
    async with db.pool.connection() as conn:
        await sync_knowledge(conn, DEFAULT_KNOWLEDGE_ROOT)


async def _top(db: Database, query: str, partitions: list[str] | frozenset[str] = ALL) -> list[str]:
    async with db.pool.connection() as conn:
        hits = await search_knowledge(conn, query, partitions, limit=3)
    return [f"{h.partition}/{h.slug}" for h in hits]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("how do I return an item", "return_policy/returns_en"),
        ("怎么退货", "return_policy/returns_zh"),
        ("退款退到哪里", "return_policy/returns_zh"),
        ("my package is late", "shipping_policy/delivery_en"),
        ("包裹延误怎么办", "shipping_policy/delivery_zh"),
        ("exchange for a different size", "return_policy/exchanges_en"),
        ("礼品卡余额不足", "error_codes/order_errors_zh"),
    ],
)
async def test_english_and_chinese_queries_hit_the_right_document(
    db: Database, query: str, expected: str
) -> None:
    top = await _top(db, query)
    assert top, f"no hit for {query!r}"
    assert top[0] == expected


async def test_hits_carry_a_relevant_snippet(db: Database) -> None:
    async with db.pool.connection() as conn:
        hits = await search_knowledge(conn, "怎么退货", ["return_policy"], limit=1)
    assert hits[0].title == "退货政策"
    assert "退货" in hits[0].snippet
    assert hits[0].rank > 0


async def test_search_stays_inside_the_given_partitions(db: Database) -> None:
    assert await _top(db, "how do I return an item", ["shipping_routes"]) == []
    only_faq = await _top(db, "how do I return an item cancel order", ["faq"])
    assert only_faq and all(hit.startswith("faq/") for hit in only_faq)
    assert await _top(db, "return", []) == []


async def test_role_partitions_limit_what_a_role_sees(db: Database) -> None:
    roles = load_roles(ROLES_DIR, load_catalog(CATALOG_DIR).versions, DOMAIN.resources)
    logistics = kb_partitions(roles["logistics_analyst"].read)
    support = kb_partitions(roles["customer_support_rep"].read)
    assert await _top(db, "怎么退货", support)
    seen = await _top(db, "怎么退货 return refund", logistics)
    assert not any(hit.startswith("return_policy/") for hit in seen)
    assert await _top(db, "delivery time 运输时间", logistics)
    assert await _top(db, "anything", kb_partitions(roles["summarizer"].read)) == []


async def test_hostile_queries_are_plain_text(db: Database) -> None:
    for query in ("'; DROP TABLE knowledge_documents; --", "return & | ! <-> :* ')", "the of and"):
        await _top(db, query)
    async with db.pool.connection() as conn:
        cur = await conn.execute("SELECT count(*) AS n FROM knowledge_documents")
        row = await cur.fetchone()
    assert row is not None and row["n"] == 15


async def test_sync_is_idempotent_and_tracks_changes(db: Database, tmp_path: Path) -> None:
    root = tmp_path / "partitions"
    shutil.copytree(DEFAULT_KNOWLEDGE_ROOT, root)
    async with db.pool.connection() as conn:
        again = await sync_knowledge(conn, root)
        assert (again.inserted, again.updated, again.deleted) == (0, 0, 0)
        assert again.unchanged == 15

        doc = root / "faq" / "account_en.md"
        doc.write_text(doc.read_text(encoding="utf-8") + "\n## New question?\n\nA zebra answer.\n")
        (root / "error_codes" / "shipping_errors_en.md").unlink()
        changed = await sync_knowledge(conn, root)
        assert (changed.updated, changed.deleted, changed.inserted) == (1, 1, 0)
        assert await search_knowledge(conn, "zebra", ["faq"])

        restored = await sync_knowledge(conn, DEFAULT_KNOWLEDGE_ROOT)  # back to the real files
        assert (restored.inserted, restored.updated) == (1, 1)


async def test_catalog_from_database_matches_files(db: Database) -> None:
    async with db.pool.connection() as conn:
        catalog = await fetch_catalog(conn)
    assert set(catalog.partitions) == KNOWLEDGE_PARTITIONS
    assert "codes" in catalog.partitions["error_codes"].indexed_fields
    assert catalog.partitions["shipping_routes"].last_updated.isoformat() == "2026-11-15"


async def test_snippet_is_the_answer_under_the_matching_heading(db: Database) -> None:
    async with db.pool.connection() as conn:
        hits = await search_knowledge(conn, "can I cancel my order", ["faq"], limit=1)
    assert hits[0].snippet.startswith("Can I cancel my order?\nOnly while it is pending.")


async def test_a_sync_that_finds_everything_synced_writes_nothing(db: Database) -> None:
    async def transactions() -> int:
        async with db.pool.connection() as conn:
            cur = await conn.execute("SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x")
            row = await cur.fetchone()
        assert row is not None
        return int(row["x"])

    async with db.pool.connection() as conn:
        await sync_knowledge(conn, DEFAULT_KNOWLEDGE_ROOT)
        before = await transactions()
        again = await sync_knowledge(conn, DEFAULT_KNOWLEDGE_ROOT)
    assert again.unchanged == 15 and (again.inserted, again.updated, again.deleted) == (0, 0, 0)
    assert await transactions() == before  # no transaction id handed out: nothing written
