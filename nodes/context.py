"""Run-scoped dependencies of the support graph, passed as LangGraph context.

Built once at an entry point (CLI, Studio factory, tests) and never stored
in module globals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from nodes.models.tiers import ModelTiers
from skills.registry import SkillRegistry
from skills.roles import RoleSpec


@dataclass(frozen=True)
class SupportContext:
    """Everything a node needs that is not graph state."""

    runtime: Any  # skills.runtime.SkillRuntime
    registry: SkillRegistry
    roles: Mapping[str, RoleSpec]
    pool: Any
    models: ModelTiers | None = None
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    product_names: tuple[str, ...] = ()
