"""Run-scoped dependencies of the support graph, passed as LangGraph context.

Built once at an entry point (CLI, Studio factory, tests) and never stored
in module globals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta

from langgraph.config import get_config

from checkpoints.opening import Pool
from nodes.agent.bounds import AgentBounds
from nodes.conversation.budget import ContextBudget
from nodes.domain import Domain, Lexicon
from nodes.memory.facts import DEFAULT_HALF_LIFE
from nodes.models.tiers import ModelTiers
from skills.outbox.operator_settings import OperatorNotices
from skills.registry import SkillRegistry
from skills.roles import RoleSpec
from skills.runtime import SkillRuntime


@dataclass(frozen=True)
class SupportContext:
    """Everything a node needs that is not graph state."""

    domain: Domain
    skills: SkillRuntime
    """The skill runtime: every role-bound call goes through `skills.call(request)`."""
    registry: SkillRegistry
    roles: Mapping[str, RoleSpec]
    pool: Pool
    models: ModelTiers | None = None
    lexicon: Lexicon = field(default_factory=dict)
    memory_half_life: timedelta = DEFAULT_HALF_LIFE
    """A remembered fact's weight at recall halves after this (`ROLEGRAPH_MEMORY_HALF_LIFE`)."""
    context_budget: ContextBudget = field(default_factory=ContextBudget)
    """How much history a thread keeps before its older turns are compressed
    (`ROLEGRAPH_CONTEXT_TOKENS`)."""
    operator_notices: OperatorNotices = field(default_factory=OperatorNotices)
    """Who is told a request waits (`ROLEGRAPH_OPERATOR_EMAIL`, `ROLEGRAPH_APPROVAL_WEBHOOK`)."""
    agent_bounds: AgentBounds = field(default_factory=AgentBounds)
    """What stops a role agent's loop: steps, identical calls, tokens, model time."""


ADHOC = "adhoc"
"""The thread id of a call made outside a graph run (tests, scripts, the CLI's direct calls)."""


@dataclass(frozen=True)
class RunPosition:
    """Where the running node is: its thread and LangGraph superstep."""

    thread_id: str | None
    """None outside a graph run (or a run without a thread)."""
    step: int


def run_position() -> RunPosition:
    """The one reader of the running graph call's thread id and step (for audit and ledgers)."""
    try:
        config = get_config()
    except RuntimeError:  # outside a graph run
        return RunPosition(None, 0)
    thread_id = config.get("configurable", {}).get("thread_id")
    step = int(config.get("metadata", {}).get("langgraph_step", 0))
    return RunPosition(str(thread_id) if thread_id else None, step)
