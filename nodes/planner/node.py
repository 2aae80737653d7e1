"""The planner node: turn an understanding into a validated plan."""

from __future__ import annotations

from langgraph.runtime import Runtime

from nodes.context import SupportContext
from nodes.contracts import Plan, Task, Understanding
from nodes.errors import PlanRejected
from nodes.failure_text import plan_refusal
from nodes.memory.node import with_memory
from nodes.planner.model_plan import model_plan
from nodes.planner.replan import revise_plan
from nodes.planner.validate import validate_plan
from nodes.state import PlanData, StateUpdate, SupportState, TaskOutcomeData, plan_of, stored


async def planner(state: SupportState, runtime: Runtime[SupportContext]) -> StateUpdate:
    if state.get("replan"):
        return replan(state, runtime.context)
    ctx = runtime.context
    understanding = Understanding.model_validate(state["understanding"])
    rules = ctx.domain.planning.plan(understanding, state["user_id"])
    plan, tier = await model_plan(ctx, state, understanding, rules)
    plan = with_memory(ctx, state, plan)
    try:
        _validate(plan, ctx, state["user_id"])
    except PlanRejected as exc:
        return {
            "refusal": plan_refusal(exc.code, understanding.lang),
            "trace": [f"planner[{tier}]: plan rejected ({exc.code}): {exc}"],
        }
    steps = ", ".join(_step(t) for t in plan.tasks) or "nothing to run"
    return {
        "plan": stored(plan, PlanData),
        "rounds": 0,
        "trace": [f"planner[{tier}]: {steps}"],
    }


def replan(state: SupportState, ctx: SupportContext) -> StateUpdate:
    """Revise the running plan around steps that cannot be retried or substituted."""
    failed = list(state.get("replan") or [])
    plan, moved = revise_plan(plan_of(state), failed, ctx.registry)
    try:
        _validate(plan, ctx, state["user_id"])
    except PlanRejected as exc:
        return {
            "replan": None,
            "trace": [f"planner: replan rejected ({exc.code}); keeping the plan"],
        }
    outcomes = state.get("outcomes") or {}
    # Steps skipped only because a replaced step failed get their chance again;
    # the replaced steps stay failed but are no longer worth refining.
    update: dict[str, TaskOutcomeData | None] = {
        t: None for t in moved if t in outcomes and outcomes[t]["status"] == "skipped"
    }
    for task_id in failed:
        update[task_id] = {**outcomes[task_id], "error_code": "replanned"}
    added = [t.id for t in plan.tasks if t.id not in outcomes]
    return {
        "plan": stored(plan, PlanData),
        "replan": None,
        "outcomes": update,
        "trace": [f"planner: replan around {failed}; to run {added}"],
    }


def _step(task: Task) -> str:
    if task.goal is not None:
        return f"{task.id}:{task.role}/goal"
    gate = f" if {task.when.task}:{task.when.name}" if task.when else ""
    return f"{task.id}:{task.role}/{task.skill}{gate}"


def _validate(plan: Plan, ctx: SupportContext, user_id: str) -> None:
    known = frozenset(ctx.registry.skill_ids)
    planning = ctx.domain.planning
    validate_plan(
        plan,
        ctx.roles,
        known,
        user_id,
        bulk_args=planning.bulk_args,
        conditions=planning.condition_fields,
    )
