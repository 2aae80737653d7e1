"""Goal tasks: a request no plan of skills answers, handed to one role agent.

A model planner may reply with one goal task instead of a plan. It is
accepted only when the goal goes to a role whose model tier has a model (a
role agent, `nodes.agent`), the goal is a non-empty sentence, and the rules
plan changes nothing: a goal never replaces a change the customer asked for
(the agent's own writes still need the customer's yes and an operator's
approval, through the skill runtime).

The goal runs beside the rules plan, never instead of it: whatever the agent
finds, the rules' reads still run and are answered, so a weak model's agent
can add a checked sentence to the answer but never take a fact away
(`nodes.agent.answer`).
"""

from __future__ import annotations

from collections.abc import Mapping

from nodes.contracts import Plan, Task, Tier
from nodes.errors import ModelOutputInvalid
from nodes.models.tiers import ModelTiers
from skills.registry import SkillRegistry
from skills.roles import RoleSpec

NODE = "planner"
MAX_GOAL_CHARS = 400


def agent_roles(roles: Mapping[str, RoleSpec], tiers: ModelTiers | None) -> frozenset[str]:
    """The roles that can take a goal: their declared tier has a model configured."""
    if tiers is None:
        return frozenset()
    return frozenset(
        name
        for name, spec in roles.items()
        if spec.model_tier != "rules" and tiers.ladder(spec.model_tier)
    )


def goal_plan(
    task_id: str,
    role: str,
    goal: str,
    *,
    rules: Plan,
    agents: frozenset[str],
    registry: SkillRegistry,
    tier: Tier,
) -> Plan:
    """The one-task plan handing `goal` to `role`, or `ModelOutputInvalid` saying why not."""
    if role not in agents:
        raise ModelOutputInvalid(NODE, f"{task_id}: role {role[:40]!r} takes no goals")
    text = " ".join(goal.split())
    if not text or len(text) > MAX_GOAL_CHARS:
        raise ModelOutputInvalid(NODE, f"{task_id}: a goal is one sentence of 1-400 characters")
    if any(registry.is_side_effect(t.skill) for t in rules.tasks if t.skill):
        raise ModelOutputInvalid(NODE, "a goal cannot stand in for a requested change")
    if any(t.id == task_id for t in rules.tasks):
        raise ModelOutputInvalid(NODE, f"{task_id}: the goal's id is a planned step's")
    task = Task(id=task_id, role=role, goal=text)
    return Plan(tasks=(*rules.tasks, task), rationale=f"{tier} model goal for {role}")
