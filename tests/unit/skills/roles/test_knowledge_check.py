"""knowledge_check: visibility, indexed fields and freshness of partitions."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import yaml
from roles_testkit import KNOWN_SKILLS, REPO_ROOT, ROLES_DIR, VOCABULARY

from skills.contract import SkillMetadata
from skills.errors import SkillLoadError
from skills.knowledge import KnowledgeCatalog, bind_knowledge_check, knowledge_check
from skills.knowledge.check import PartitionInfo
from skills.roles import RoleSpec, load_roles

CATALOG_DIR = REPO_ROOT / "domains" / "retail" / "catalog"
NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _metadata(skill_id: str) -> SkillMetadata:
    raw = yaml.safe_load((CATALOG_DIR / skill_id / "metadata.yaml").read_text(encoding="utf-8"))
    return SkillMetadata.model_validate(raw)


@pytest.fixture(scope="module")
def roles() -> dict[str, RoleSpec]:
    return load_roles(ROLES_DIR, KNOWN_SKILLS, VOCABULARY)


@pytest.fixture(scope="module")
def catalog() -> KnowledgeCatalog:
    return KnowledgeCatalog.from_directory(REPO_ROOT / "domains" / "retail" / "knowledge")


def test_every_real_binding_passes(roles: dict[str, RoleSpec], catalog: KnowledgeCatalog) -> None:
    checked = 0
    for package in sorted(CATALOG_DIR.glob("*/metadata.yaml")):
        meta = _metadata(package.parent.name)
        for role in roles.values():
            if meta.skill_id in role.execute:
                knowledge_check(meta, role, catalog, now=NOW)
                checked += 1
    assert checked >= 2  # search_knowledge_v1 and faq_cache_lookup_v1 for the support rep


def test_partition_not_visible_to_role(
    roles: dict[str, RoleSpec], catalog: KnowledgeCatalog
) -> None:
    with pytest.raises(SkillLoadError) as info:
        knowledge_check(
            _metadata("search_knowledge_v1"), roles["logistics_analyst"], catalog, now=NOW
        )
    # faq comes first in the declared dependencies and logistics cannot read it either.
    assert str(info.value) == (
        "SkillLoadError: search_knowledge_v1 needs kb://faq, not readable by role logistics_analyst"
    )


def test_names_the_first_invisible_dependency(
    catalog: KnowledgeCatalog, roles: dict[str, RoleSpec]
) -> None:
    sees_faq_only = roles["customer_support_rep"].model_copy(
        update={
            "permissions": roles["customer_support_rep"].permissions.model_copy(
                update={"read": ("kb://faq", "kb://shipping_policy")}
            )
        }
    )
    with pytest.raises(SkillLoadError, match="needs kb://return_policy, not readable by role"):
        knowledge_check(_metadata("search_knowledge_v1"), sees_faq_only, catalog, now=NOW)


def test_required_field_not_indexed(roles: dict[str, RoleSpec], catalog: KnowledgeCatalog) -> None:
    meta = _metadata("faq_cache_lookup_v1")
    dep = meta.knowledge_dependencies[0].model_copy(update={"required_fields": ("topic", "codes")})
    needs_codes = meta.model_copy(update={"knowledge_dependencies": (dep,)})
    with pytest.raises(SkillLoadError, match="needs field 'codes' of kb://faq, which indexes only"):
        knowledge_check(needs_codes, roles["customer_support_rep"], catalog, now=NOW)


def test_stale_partition(roles: dict[str, RoleSpec], catalog: KnowledgeCatalog) -> None:
    meta = _metadata("faq_cache_lookup_v1")
    faq_updated = catalog.partitions["faq"].last_updated
    knowledge_check(meta, roles["customer_support_rep"], catalog, now=NOW)
    later = datetime.combine(faq_updated, datetime.min.time(), UTC).replace(
        year=faq_updated.year + 2
    )
    with pytest.raises(SkillLoadError, match=r"needs kb://faq at most 365 days old.*days ago"):
        knowledge_check(meta, roles["customer_support_rep"], catalog, now=later)


def test_unknown_partition(roles: dict[str, RoleSpec]) -> None:
    empty = KnowledgeCatalog({})
    with pytest.raises(SkillLoadError, match="needs kb://faq, which does not exist"):
        knowledge_check(
            _metadata("faq_cache_lookup_v1"), roles["customer_support_rep"], empty, now=NOW
        )


def test_bound_check_uses_injected_clock(roles: dict[str, RoleSpec]) -> None:
    catalog = KnowledgeCatalog(
        {"faq": PartitionInfo("faq", frozenset({"topic", "lang"}), date(2026, 1, 1))}
    )
    meta = _metadata("faq_cache_lookup_v1")
    fresh = bind_knowledge_check(catalog, clock=lambda: datetime(2026, 6, 1, tzinfo=UTC))
    stale = bind_knowledge_check(catalog, clock=lambda: datetime(2027, 6, 1, tzinfo=UTC))
    fresh(meta, roles["customer_support_rep"])
    with pytest.raises(SkillLoadError, match="days old"):
        stale(meta, roles["customer_support_rep"])


def test_skill_without_dependencies_always_passes(roles: dict[str, RoleSpec]) -> None:
    meta = _metadata("search_knowledge_v1").model_copy(update={"knowledge_dependencies": ()})
    knowledge_check(meta, roles["summarizer"], KnowledgeCatalog({}), now=NOW)


def test_catalog_reflects_partition_files(catalog: KnowledgeCatalog, tmp_path: Path) -> None:
    assert "codes" in catalog.partitions["error_codes"].indexed_fields
    assert "codes" not in catalog.partitions["faq"].indexed_fields
    assert catalog.partitions["return_policy"].last_updated == date(2026, 11, 2)
