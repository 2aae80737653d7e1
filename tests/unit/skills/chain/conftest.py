from __future__ import annotations

import pytest
from chain_helpers import FIXTURES

from skills.registry import SkillRegistry, load_catalog


@pytest.fixture
def registry() -> SkillRegistry:
    return load_catalog(FIXTURES / "skill_catalog")
