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

from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.runtime import Runtime
from pydantic import ValidationError

from nodes.conditions import condition_skipped
from nodes.context import SupportContext
from nodes.contracts import Plan, Task, TaskOutcome, Tier, Understanding
from nodes.errors import ModelOutputInvalid
from nodes.models.call import call_site, descend
from nodes.models.schema import parse_reply
from nodes.models.tiers import ModelSize
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
    modelled = ctx.models is not None and ctx.models.available
    if failed and modelled and replans_so_far(state) < MAX_STEP_REPLANS:
        found = await _model_replan(ctx, state, failed)
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
    ctx: SupportContext, state: SupportState, failed: list[TaskOutcome]
) -> tuple[Plan, Tier] | None:
    assert ctx.models is not None
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
        )  # fmt: skip
        return checked.model_copy(update={"rationale": f"{tier} model replan"}), tier

    messages = _messages(ctx, state, understanding, rules, kept, failed)
    site = call_site(NODE, dict(state))
    return await descend(ctx.models, ctx.pool, site, PLANNER_TIER, messages, accept)


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
    data = task.model_dump(mode="json", exclude={"question"})
    if data.get("when") is None:
        data.pop("when", None)
    return data


def _messages(
    ctx: SupportContext,
    state: SupportState,
    understanding: Understanding,
    rules: Plan,
    kept: list[Task],
    failed: list[TaskOutcome],
) -> list[BaseMessage]:
    assert ctx.models is not None
    outcomes = state.get("outcomes") or {}
    done = "; ".join(
        f"{t.id} {t.role}/{t.skill} {outcomes[t.id]['status']}"
        + (f" ({outcomes[t.id].get('error_code')})" if outcomes[t.id].get("error_code") else "")
        for t in kept
    )
    note = _PROGRESS.format(
        done=done or "nothing", failed=", ".join(o.task_id for o in failed),
        used=", ".join(t.id for t in plan_of(state).tasks),
    )  # fmt: skip
    base = planner_messages(ctx.models.prompts, ctx, understanding, rules, state["user_id"])
    return [*base, HumanMessage(content=note)]


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
