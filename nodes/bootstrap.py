"""Build the support graph's context once, at an entry point.

Loads the skill catalog and role files, cross-checks the permission matrix,
syncs the knowledge partitions and binds every role's skills — so every
configuration mistake is a start-up error, not a surprise mid-run.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from checkpoints.migrations import migrate
from checkpoints.opening import Pool
from nodes.agent.bounds import AgentBounds
from nodes.context import SupportContext
from nodes.conversation.budget import context_budget_from
from nodes.domain import Domain, load_domain
from nodes.memory.facts import half_life_from
from nodes.models.prompts import domain_prompt
from skills.context import RuntimeContext
from skills.knowledge.check import bind_knowledge_check, fetch_catalog
from skills.knowledge.sync import sync_knowledge
from skills.outbox.operator_settings import OperatorNotices
from skills.permission_matrix import check_permission_matrix, skill_operations
from skills.registry import SkillRegistry, load_catalog
from skills.roles import RoleSpec, load_roles
from skills.runtime import SkillRuntime


def load_static_config(domain: Domain | None = None) -> tuple[SkillRegistry, dict[str, RoleSpec]]:
    """Catalog + roles + matrix of `domain`: everything checkable without a database."""
    domain = domain or load_domain()
    registry = load_catalog(domain.catalog)
    roles = load_roles(domain.roles, registry.versions, domain.resources)
    operations = skill_operations((s.metadata for s in registry), domain.resources)
    matrix = domain.roles / "permission_matrix.yaml"
    check_permission_matrix(roles, matrix, operations, domain.resources)
    return registry, roles


async def build_support_context(
    pool: Pool,
    *,
    env: Mapping[str, str] | None = None,
    domain: Domain | None = None,
    models: Any = None,
    static: tuple[SkillRegistry, dict[str, RoleSpec]] | None = None,
    **runtime_options: Any,
) -> SupportContext:
    """`static` is a `load_static_config()` result loaded elsewhere (e.g. off the event loop)."""
    env = os.environ if env is None else env
    domain = domain or load_domain(env=env)
    registry, roles = static or load_static_config(domain)
    async with pool.connection() as conn:
        await migrate(conn, (domain.migrations,))
        await sync_knowledge(conn, domain.knowledge)
        catalog = await fetch_catalog(conn)
    lexicon = await domain.understanding.lexicon(pool)
    if models is not None:
        # The model tiers are told about the domain from its own file: a
        # missing one is a start-up error, not a failed first request.
        for name in ("intake", "compose", "agent"):
            domain_prompt(domain.prompts, name)
    settings = {k: env[k] for k in domain.settings if env.get(k)}
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
        domain=domain,
        skills=runtime,
        registry=registry,
        roles=roles,
        pool=pool,
        models=models,
        lexicon=lexicon,
        memory_half_life=half_life_from(env),
        context_budget=context_budget_from(env),
        operator_notices=OperatorNotices.from_env(env),
        agent_bounds=AgentBounds.from_env(env),
    )
