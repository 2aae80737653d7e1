"""The planner node: turn an understanding into a validated plan."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from nodes.context import SupportContext
from nodes.contracts import Plan, Understanding
from nodes.errors import PlanRejected
from nodes.planner.templates import rules_plan
from nodes.planner.validate import validate_plan
from nodes.state import SupportState


async def planner(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    ctx = runtime.context
    understanding = Understanding.model_validate(state["understanding"])
    plan = rules_plan(understanding, state["user_id"])
    try:
        validate_plan(plan, ctx.roles, frozenset(ctx.registry.skill_ids), state["user_id"])
    except PlanRejected as exc:
        return {
            "refusal": f"I can't do that: {exc}.",
            "trace": [f"planner: plan rejected ({exc.code}): {exc}"],
        }
    steps = ", ".join(f"{t.id}:{t.role}/{t.skill}" for t in plan.tasks) or "nothing to run"
    return {"plan": plan.model_dump(mode="json"), "rounds": 0, "trace": [f"planner: {steps}"]}


def plan_of(state: SupportState) -> Plan:
    return Plan.model_validate(state.get("plan") or {})
