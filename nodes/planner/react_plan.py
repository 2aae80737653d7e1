"""The `react` mode's planner: the customer's request as one goal for the front role's agent.

When the domain's front role (`front: true` in its role file) has a model tier
configured (`nodes.planner.goals.agent_roles`) and the rules would run something
for the request, the plan is one goal task: the front role's agent pursues the
request through its whitelist, every call through the skill runtime (writes
still need the customer's yes and an operator's approval). Otherwise the turn is
planned as in the `support` mode (`nodes.planner.node.planner`). The rules plan
is checked first, so a request the rules refuse is refused as in `support`; it is
also what the turn falls back to when the agent does not carry the goal
(`nodes.react_fallback`).
"""

from __future__ import annotations

import json

from langgraph.runtime import Runtime

from nodes.context import SupportContext
from nodes.contracts import Plan, Task, Understanding
from nodes.errors import PlanRejected
from nodes.memory.node import with_memory
from nodes.planner.goals import MAX_GOAL_CHARS, agent_roles
from nodes.planner.model_checks import masked_args
from nodes.planner.node import planner
from nodes.planner.validate import validate_plan
from nodes.state import PlanData, StateUpdate, SupportState, stored
from skills.roles import front_role

GOAL_TASK = "react"
"""The id of the react plan's one task (no rules plan uses it)."""
_READ = " (read from it: {})"


async def react_planner(state: SupportState, runtime: Runtime[SupportContext]) -> StateUpdate:
    """One goal task for the front role's agent, else the `support` mode's planner."""
    ctx = runtime.context
    role = front_agent(ctx)
    if state.get("replan") or role is None:
        return await planner(state, runtime)
    rules = rules_plan(ctx, state)
    if rules is None or not rules.tasks:
        # Refused or nothing to run: the support planner says so in its own words.
        return await planner(state, runtime)
    understanding = Understanding.model_validate(state["understanding"])
    task = Task(id=GOAL_TASK, role=role, goal=request_goal(understanding), changes=True)
    plan = Plan(tasks=(task,), rationale=f"react: the request is {role}'s goal")
    return {
        "plan": stored(plan, PlanData),
        "rounds": 0,
        "trace": [f"planner[react]: {GOAL_TASK}:{role}/goal"],
    }


def front_agent(ctx: SupportContext) -> str | None:
    """The front role's name when its model tier has a model configured."""
    front = front_role(ctx.roles)
    if front is None or front.name not in agent_roles(ctx.roles, ctx.models):
        return None
    return front.name


def rules_plan(ctx: SupportContext, state: SupportState) -> Plan | None:
    """The turn's rules plan as the `support` planner validates it; None if it is refused."""
    understanding = Understanding.model_validate(state["understanding"])
    user_id = state["user_id"]
    plan = with_memory(ctx, state, ctx.domain.planning.plan(understanding, user_id))
    planning = ctx.domain.planning
    try:
        validate_plan(
            plan,
            ctx.roles,
            frozenset(ctx.registry.skill_ids),
            user_id,
            bulk_args=planning.bulk_args,
            conditions=planning.condition_fields,
        )
    except PlanRejected:
        return None
    return plan


def request_goal(understanding: Understanding) -> str:
    """The customer's request (PII masked) and what the reading took from it, bounded."""
    slots = {k: list(v) for k, v in understanding.slots.items() if v}
    read = _READ.format(json.dumps(masked_args(slots), ensure_ascii=False)) if slots else ""
    if len(read) > MAX_GOAL_CHARS // 2:
        read = ""
    text = " ".join(understanding.masked_text.split())
    room = MAX_GOAL_CHARS - len(read)
    if len(text) > room:
        text = text[: room - 1].rstrip() + "…"
    return (text + read) or "help the customer"
