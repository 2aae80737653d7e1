"""Retail skills declare their result models and privacy levels, and the
runtime enforces them on real tau2 data."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.opening import Database
from domains.retail.results import RESULTS
from domains.retail.tools.replay import CATALOG, ReplayRole
from skills.context import RuntimeContext
from skills.contract import SkillRequest, SkillResult
from skills.registry import SkillRegistry, load_catalog
from skills.runtime import SkillRuntime

USER = "yusuf_rossi_9620"
EMAIL = "yusuf.rossi7301@example.com"


@pytest.fixture(scope="module")
def registry() -> SkillRegistry:
    return load_catalog(CATALOG)


def test_every_retail_skill_declares_its_result_model(registry: SkillRegistry) -> None:
    assert {s.skill_id: s.output for s in registry} == dict(RESULTS)
    assert len(registry) == len(list(Path(CATALOG).glob("*/metadata.yaml")))


async def _call(
    registry: SkillRegistry, db: Database, skill: str, args: dict[str, str]
) -> SkillResult:
    role = ReplayRole(execute=frozenset(s.skill_id for s in registry))
    runtime = SkillRuntime(registry, {role.name: role}, RuntimeContext(pool=db.pool))
    request = SkillRequest(
        skill_id=skill, args=args, role=role.name, user_id=USER, audit_id=f"aud-{skill}"
    )
    return await runtime.call(request)


async def test_a_sensitive_result_reaches_the_state_masked(
    registry: SkillRegistry, tau2_db: Database
) -> None:
    assert registry.get("get_user_details_v1").metadata.privacy_level == "sensitive"
    result = await _call(registry, tau2_db, "get_user_details_v1", {"user_id": USER})
    assert result.ok
    user = result.payload
    assert user["email"] == "y***@example.com" and EMAIL not in str(user)
    assert user["user_id"] == USER and user["payment_methods"]  # the rest stays usable
    async with tau2_db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT detail FROM audit_events WHERE audit_id = 'aud-get_user_details_v1'"
        )
        [row] = await cur.fetchall()
    assert row["detail"]["result"]["email"] == "y***@example.com"
    assert EMAIL not in str(row["detail"])


async def test_a_customer_result_is_kept_whole_for_its_customer(
    registry: SkillRegistry, tau2_db: Database
) -> None:
    result = await _call(registry, tau2_db, "get_order_details_v1", {"order_id": "#W4776164"})
    assert result.ok and result.payload["user_id"] == USER
    assert not result.truncated
