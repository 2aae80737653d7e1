"""The two knowledge skill packages: test cases, execution, fallback wiring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from checkpoints.opening import Database
from skills.context import RuntimeContext
from skills.errors import SkillValidationError
from skills.knowledge import sync_knowledge
from skills.registry import LoadedSkill, load_catalog

CATALOG = Path(__file__).resolve().parents[3] / "domains" / "retail" / "catalog"
KNOWLEDGE_SKILLS = ("search_knowledge_v1", "faq_cache_lookup_v1")


@pytest.fixture(scope="module")
def skills() -> dict[str, LoadedSkill]:
    registry = load_catalog(CATALOG)
    return {sid: registry.get(sid) for sid in KNOWLEDGE_SKILLS}


@pytest.fixture(scope="module", autouse=True)
async def synced(db: Database) -> None:
    async with db.pool.connection() as conn:
        await sync_knowledge(conn, CATALOG.parent / "knowledge")


def _cases(skill: LoadedSkill) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for path in sorted((skill.path / "test_cases").glob("*.json")):
        cases.extend(json.loads(path.read_text(encoding="utf-8"))["cases"])
    return cases


@pytest.mark.parametrize("skill_id", KNOWLEDGE_SKILLS)
async def test_cases_validate_and_valid_ones_run(
    db: Database, skills: dict[str, LoadedSkill], skill_id: str
) -> None:
    skill = skills[skill_id]
    ctx = RuntimeContext(pool=db.pool)
    kinds = {c["kind"] for c in _cases(skill)}
    assert kinds == {"normal", "boundary", "malicious"}
    for case in _cases(skill):
        if case["expect"] == "invalid":
            with pytest.raises(SkillValidationError):
                skill.executor.validate_input(case["args"])
            continue
        args = skill.executor.validate_input(case["args"])
        payload = await skill.executor.execute(args, ctx)
        json.dumps(payload)  # payloads are JSON-serialisable


async def test_search_skill_returns_return_policy(
    db: Database, skills: dict[str, LoadedSkill]
) -> None:
    executor = skills["search_knowledge_v1"].executor
    ctx = RuntimeContext(pool=db.pool)
    payload = await executor.execute(executor.validate_input({"query": "怎么退货"}), ctx)
    assert payload["results"][0]["partition"] == "return_policy"
    assert set(payload["partitions"]) == {"faq", "return_policy", "shipping_policy"}


async def test_search_skill_never_reaches_undeclared_partitions(
    db: Database, skills: dict[str, LoadedSkill]
) -> None:
    executor = skills["search_knowledge_v1"].executor
    ctx = RuntimeContext(pool=db.pool)
    payload = await executor.execute(
        executor.validate_input({"query": "Chicago hub 转运中心"}), ctx
    )
    assert all(r["partition"] != "shipping_routes" for r in payload["results"])


async def test_faq_cache_answers_without_a_database(skills: dict[str, LoadedSkill]) -> None:
    executor = skills["faq_cache_lookup_v1"].executor
    ctx = RuntimeContext(pool=None)  # no database at all
    english = await executor.execute(
        executor.validate_input({"question": "can I cancel my order"}), ctx
    )
    assert english["answers"][0]["question"] == "Can I cancel my order?"
    chinese = await executor.execute(executor.validate_input({"question": "可以取消订单吗"}), ctx)
    assert chinese["answers"][0]["question"] == "可以取消订单吗？"


def test_faq_cache_is_the_declared_fallback(skills: dict[str, LoadedSkill]) -> None:
    policies = skills["search_knowledge_v1"].metadata.error_handling
    assert policies["timeout"].action == "fallback"
    assert policies["timeout"].fallback_skill == "faq_cache_lookup_v1"
    assert policies["circuit_open"].fallback_skill == "faq_cache_lookup_v1"


def test_the_fallback_accepts_what_the_search_was_asked(skills: dict[str, LoadedSkill]) -> None:
    search, faq = skills["search_knowledge_v1"], skills["faq_cache_lookup_v1"]
    asked = search.executor.validate_input(
        {"query": "Can I cancel my order?", "partitions": ["faq"], "limit": 8}
    )
    for code in ("timeout", "circuit_open"):
        mapped = search.metadata.error_handling[code].args_for_fallback(asked)
        assert faq.executor.validate_input(mapped) == {
            "question": "Can I cancel my order?",
            "limit": 3,
        }
