"""Run-scoped dependencies of the support graph, passed as LangGraph context.

Built once at an entry point (CLI, Studio factory, tests) and never stored
in module globals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from langgraph.config import get_config

from checkpoints.opening import Pool
from nodes.domain import Domain, Lexicon
from nodes.models.tiers import ModelTiers
from skills.registry import SkillRegistry
from skills.roles import RoleSpec
from skills.runtime import SkillRuntime


@dataclass(frozen=True)
class SupportContext:
    """Everything a node needs that is not graph state."""

    domain: Domain
    runtime: SkillRuntime
    registry: SkillRegistry
    roles: Mapping[str, RoleSpec]
    pool: Pool
    models: ModelTiers | None = None
    lexicon: Lexicon = field(default_factory=dict)


def current_thread_id() -> str:
    """The thread id of the running graph call (`adhoc` outside one: tests, scripts)."""
    try:
        config = get_config()
    except RuntimeError:
        return "adhoc"
    return str(config.get("configurable", {}).get("thread_id", "adhoc"))


def current_step() -> int:
    """The LangGraph superstep of the running node (0 outside a graph run)."""
    try:
        config = get_config()
    except RuntimeError:
        return 0
    return int(config.get("metadata", {}).get("langgraph_step", 0))
