"""Build the support graph's context once, at an entry point.

Loads the skill catalog and role files, cross-checks the permission matrix,
syncs the knowledge partitions and binds every role's skills — so every
configuration mistake is a start-up error, not a surprise mid-run.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import skills
from nodes.context import SupportContext
from skills.context import RuntimeContext
from skills.knowledge.check import bind_knowledge_check, fetch_catalog
from skills.knowledge.sync import sync_knowledge
from skills.permission_matrix import check_permission_matrix
from skills.registry import SkillRegistry, load_catalog
from skills.roles import RoleSpec, load_roles
from skills.runtime import SkillRuntime
from skills.skill_operations import RETAIL_SKILL_OPERATIONS

ROLES_DIR = Path(__file__).resolve().parent / "roles"
CATALOG_DIR = Path(skills.__file__).resolve().parent / "catalog"
SKILL_SETTINGS = ("SMTP_HOST", "SMTP_PORT", "SMTP_FROM", "NOTIFY_MAX_ATTEMPTS")


def load_static_config() -> tuple[SkillRegistry, dict[str, RoleSpec]]:
    """Catalog + roles + matrix: everything checkable without a database."""
    registry = load_catalog(CATALOG_DIR)
    roles = load_roles(ROLES_DIR, registry.skill_ids)
    check_permission_matrix(roles, ROLES_DIR / "permission_matrix.yaml", RETAIL_SKILL_OPERATIONS)
    return registry, roles


async def build_support_context(
    pool: Any,
    *,
    env: Mapping[str, str] | None = None,
    models: Any = None,
    static: tuple[SkillRegistry, dict[str, RoleSpec]] | None = None,
    **runtime_options: Any,
) -> SupportContext:
    """`static` is a `load_static_config()` result loaded elsewhere (e.g. off the event loop)."""
    env = os.environ if env is None else env
    registry, roles = static or load_static_config()
    async with pool.connection() as conn:
        await sync_knowledge(conn)
        catalog = await fetch_catalog(conn)
        cur = await conn.execute("SELECT name FROM products ORDER BY name")
        product_names = tuple(row["name"] for row in await cur.fetchall())
    settings = {k: env[k] for k in SKILL_SETTINGS if env.get(k)}
    runtime = SkillRuntime(
        registry,
        roles,
        RuntimeContext(pool=pool, settings=settings),
        knowledge_check=bind_knowledge_check(catalog),
        **runtime_options,
    )
    for role in roles.values():
        runtime.bound_skills(role)  # raises SkillLoadError for an unsatisfiable role
    return SupportContext(
        runtime=runtime,
        registry=registry,
        roles=roles,
        pool=pool,
        models=models,
        product_names=product_names,
    )
