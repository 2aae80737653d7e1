"""Replanning a plan that runs step by step (the `plan_execute` mode) when a step failed.

When a read failed, the model is shown the request, the rules draft and what ran
so far, and answers with the steps still to run. The answer is merged behind the
steps that ran (kept with their ids and outcomes, so nothing runs twice) and the
merged plan passes every check a first model plan passes
(`nodes.planner.model_checks`): writes are still only the customer's, each once.
A failed write is never replanned by a model (it may not widen or repeat one); it,
like any failure without a model, a rejected reply or a spent bound, goes to
refinement (`nodes.refine`: retry, fallback, the rules replan, a human).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime
from pydantic import ValidationError

from nodes.conditions import condition_skipped
from nodes.context import SupportContext
from nodes.contracts import Plan, Task, TaskOutcome, Tier, Understanding
from nodes.errors import ModelOutputInvalid
from nodes.models.call import call_site, descend
from nodes.models.schema import parse_reply
from nodes.models.tiers import ModelSize, ModelTiers
from nodes.planner.model_checks import NODE, PlanReply, check_model_plan
from nodes.planner.model_plan import PLANNER_TIER, planner_messages
from nodes.refine import UNKNOWN_OUTCOME, refinable, refine
from nodes.state import PlanData, SupportState, TaskOutcomeData, plan_of, stored

MAX_STEP_REPLANS = 2
"""Model replans per turn; then refinement decides (its own rounds are bounded)."""
REPLANNED = "replanned"
_PROGRESS = (
    "The plan runs step by step. So far: {done}. Step(s) {failed} failed. Reply with the "
    "steps still to run, as the same JSON object: use ids not used above ({used}), depend "
    "only on steps that succeeded or on your new steps, and never repeat a step that ran."
)


async def replan_step(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    """Replan around failed reads with the model if it can; else refine the plan."""
    ctx = runtime.context
    failed = failed_reads(state, ctx)
    tiers = ctx.models
    if failed and tiers and tiers.available and replans_so_far(state) < MAX_STEP_REPLANS:
        found = await _model_replan(ctx, tiers, state, failed)
        if found is not None:
            return _replanned(state, failed, *found)
    refined = await refine(state, runtime)
    return {**refined, "trace": ["replan: refinement decides", *refined.get("trace", [])]}


def failed_reads(state: SupportState, ctx: SupportContext) -> list[TaskOutcome]:
    """Failed steps a model may plan around: reads whose failure refinement would act on."""
    return [
        o
        for o in refinable(state)
        if o.error_code not in UNKNOWN_OUTCOME and not ctx.registry.is_side_effect(o.skill)
    ]


def replans_so_far(state: SupportState) -> int:
    """How many steps of this turn's plan were replanned around."""
    return sum(
        1 for o in (state.get("outcomes") or {}).values() if o.get("error_code") == REPLANNED
    )


async def _model_replan(
    ctx: SupportContext, tiers: ModelTiers, state: SupportState, failed: list[TaskOutcome]
) -> tuple[Plan, Tier] | None:
    understanding = Understanding.model_validate(state["understanding"])
    user_id = state["user_id"]
    rules = ctx.domain.planning.plan(understanding, user_id)
    kept = ran(plan_of(state), state.get("outcomes") or {})

    def accept(reply: str, tier: ModelSize) -> tuple[Plan, Tier]:
        rest = parse_reply(NODE, reply, PlanReply)
        _check_new_ids(kept, rest)
        merged = _merged(kept, rest)
        checked = check_model_plan(
            merged, rules=rules, understanding=understanding, domain=ctx.domain,
            roles=ctx.roles, registry=ctx.registry, user_id=user_id, tier=tier,
            keeps_reads=False,  # it routes around the reads that failed
        )  # fmt: skip
        return checked.model_copy(update={"rationale": f"{tier} model replan"}), tier

    base = planner_messages(tiers.prompts, ctx, understanding, rules, user_id)
    messages = [*base, HumanMessage(content=_progress(state, kept, failed))]
    site = call_site(NODE, dict(state))
    return await descend(tiers, ctx.pool, site, PLANNER_TIER, messages, accept)


def ran(plan: Plan, outcomes: Mapping[str, TaskOutcomeData]) -> list[Task]:
    """The plan's steps that ran (or were skipped for their own condition): they stay."""
    return [
        t
        for t in plan.tasks
        if t.id in outcomes
        and (outcomes[t.id]["status"] != "skipped" or condition_skipped(outcomes[t.id]))
    ]


def _check_new_ids(kept: list[Task], rest: PlanReply) -> None:
    reused = sorted({t.id for t in kept} & {t.id for t in rest.tasks})
    if reused:
        raise ModelOutputInvalid(NODE, f"replan reuses the id(s) of steps that ran: {reused[:3]}")


def _merged(kept: list[Task], rest: PlanReply) -> PlanReply:
    """The steps that ran, then the model's: one plan for the checks."""
    tasks = [*map(_as_reply, kept), *rest.model_dump(mode="json", exclude_none=True)["tasks"]]
    try:
        # As JSON, like a reply: the reply schema is strict about Python types.
        return PlanReply.model_validate_json(json.dumps({"tasks": tasks}))
    except ValidationError as exc:
        raise ModelOutputInvalid(NODE, f"replan: {exc.errors()[0]['msg']}") from exc


def _as_reply(task: Task) -> dict[str, Any]:
    data = task.model_dump(mode="json", exclude={"question", "changes"})
    if data.get("when") is None:
        data.pop("when", None)
    return data


def _progress(state: SupportState, kept: list[Task], failed: list[TaskOutcome]) -> str:
    """What ran so far, by id, role, skill and status (error codes, never error text)."""
    outcomes = state.get("outcomes") or {}

    def shown(task: Task) -> str:
        outcome = outcomes[task.id]
        code = outcome.get("error_code")
        return f"{task.id} {task.role}/{task.skill} {outcome['status']}" + (
            f" ({code})" if code else ""
        )

    return _PROGRESS.format(
        done="; ".join(map(shown, kept)) or "nothing",
        failed=", ".join(o.task_id for o in failed),
        used=", ".join(t.id for t in plan_of(state).tasks),
    )


def _replanned(
    state: SupportState, failed: list[TaskOutcome], plan: Plan, tier: Tier
) -> dict[str, Any]:
    """The merged plan; failed steps marked replanned, steps they blocked dropped."""
    outcomes = state.get("outcomes") or {}
    kept = {t.id for t in plan.tasks}
    update: dict[str, TaskOutcomeData | None] = {
        t: None for t in outcomes if t not in kept and outcomes[t]["status"] == "skipped"
    }
    for o in failed:
        update[o.task_id] = {**outcomes[o.task_id], "error_code": REPLANNED}
    added = [t.id for t in plan.tasks if t.id not in outcomes]
    around = [o.task_id for o in failed]
    return {
        "plan": stored(plan, PlanData),
        "outcomes": update,
        "trace": [f"replan[{tier}]: around {around}; to run {added}"],
    }
