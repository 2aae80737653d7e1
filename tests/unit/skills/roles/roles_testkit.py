"""Shared constants and builders for the role tests (a unique module name, so
it imports unambiguously under pytest's default import mode)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parents[4]
ROLES_DIR = REPO_ROOT / "domains" / "retail" / "roles"
CATALOG_DIR = REPO_ROOT / "domains" / "retail" / "catalog"


def catalog_versions(catalog: Path = CATALOG_DIR) -> dict[str, str]:
    """Skill id -> version as the catalog's metadata files declare them."""
    versions: dict[str, str] = {}
    for path in sorted(catalog.glob("*/metadata.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        versions[data["skill_id"]] = data["version"]
    return versions


KNOWN_SKILLS = catalog_versions()


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
