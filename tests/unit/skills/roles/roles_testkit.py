"""Shared constants and builders for the role tests (a unique module name, so
it imports unambiguously under pytest's default import mode)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domains.retail import DOMAIN
from skills.permission_matrix import skill_operations
from skills.registry import load_catalog

REPO_ROOT = Path(__file__).resolve().parents[4]
ROLES_DIR = REPO_ROOT / "domains" / "retail" / "roles"
CATALOG_DIR = REPO_ROOT / "domains" / "retail" / "catalog"
VOCABULARY = DOMAIN.resources
_CATALOG = load_catalog(CATALOG_DIR)
SKILL_OPERATIONS = skill_operations((s.metadata for s in _CATALOG), VOCABULARY)
KNOWN_SKILLS = dict(_CATALOG.versions)
"""Skill id -> the version the catalog holds (what version pins are checked against)."""


def role_data(name: str = "reader", **overrides: Any) -> dict[str, Any]:
    """A valid role reading orders through get_order_details_v1."""
    data: dict[str, Any] = {
        "name": name,
        "description": "test role",
        "model_tier": "rules",
        "permissions": {
            "read": ["db://orders"],
            "execute": ["get_order_details_v1"],
            "deny": ["http_call"],
        },
        "skills": [
            {"skill_id": "get_order_details_v1", "version": "1.x", "required_context": ["user_id"]}
        ],
    }
    data.update(overrides)
    return data
