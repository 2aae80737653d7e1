"""The `react` mode's recovery: a goal the agent did not carry goes back to the rules.

A weak model must never leave a turn worse than the rules tier. When the front
role's goal task ended failed, stopped at a bound (partial), "succeeded" on no
tool result at all (an answer resting on nothing the runtime returned), or
stopped to ask the customer to confirm a change of a record that is neither one
the request named nor one the agent's results showed is the customer's (the
rule model plans obey, `nodes.planner.model_checks`), and the agent made no
write (no change succeeded, none may have happened), the goal is dropped and
the turn runs the rules plan (`nodes.planner.react_plan`): the answer is the one
the `support` mode gives without a model. With a write made, or for any other
failure, refinement decides as in every mode (`nodes.refine`).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime, get_runtime
from langgraph.types import Send

from nodes.agent.answer import agent_own_ids
from nodes.agent.findings import AgentFindings
from nodes.context import SupportContext
from nodes.contracts import TaskOutcome, Understanding
from nodes.dispatch import ready_tasks, task_input
from nodes.domain import Domain
from nodes.planner.react_plan import rules_plan
from nodes.quoting import id_shapes, ids_in, norm_id
from nodes.refine import UNKNOWN_OUTCOME, refine
from nodes.role_node import node_name
from nodes.routing import when_nothing_ready
from nodes.state import PlanData, SupportState, TaskOutcomeData, plan_of, stored
from skills.registry import SkillRegistry

RECOVERY = "fallback"
"""The react graph's recovery node."""


def react_route(state: SupportState) -> list[Send] | str:
    """`Send` every ready task; a goal left to the rules, or failed steps, to `fallback`."""
    ready = ready_tasks(state)
    if ready:
        return [Send(node_name(t.role), task_input(state, t)) for t in ready]
    after = when_nothing_ready(state)
    if after == "approval":
        return after
    ctx = get_runtime(SupportContext).context
    if after == "refine" or left_to_rules(state, ctx.registry, ctx.domain):
        return RECOVERY
    return after


async def react_recover(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    """Replace goals left to the rules with the turn's rules plan; else refine."""
    ctx = runtime.context
    dropped = left_to_rules(state, ctx.registry, ctx.domain)
    rules = rules_plan(ctx, state) if dropped else None
    if rules is None:
        return await refine(state, runtime)
    gone = {o.task_id for o in dropped}
    kept = tuple(t for t in plan_of(state).tasks if t.id not in gone)
    plan = rules.model_copy(update={"tasks": kept + rules.tasks})
    why = ", ".join(f"{o.task_id} ({_why(o)})" for o in dropped)
    outcomes: dict[str, TaskOutcomeData | None] = dict.fromkeys(gone)
    return {
        "plan": stored(plan, PlanData),
        "outcomes": outcomes,
        # A question the agent would have asked is not asked; the rules ask their own.
        "confirmations": dict.fromkeys(gone),
        "trace": [f"fallback: {why} left to the rules; to run {[t.id for t in rules.tasks]}"],
    }


def left_to_rules(
    state: SupportState, registry: SkillRegistry, domain: Domain
) -> list[TaskOutcome]:
    """Goal outcomes the agent did not carry and that changed nothing."""
    plan = plan_of(state)
    goals = {t.id for t in plan.tasks if t.goal is not None}
    found = []
    for task_id, data in (state.get("outcomes") or {}).items():
        if task_id not in goals:
            continue
        outcome = TaskOutcome.model_validate(data)
        findings = _findings(outcome)
        carried = not not_carried(outcome, findings) and not strays(
            state, outcome, findings, domain
        )
        if not carried and not wrote(findings, registry):
            found.append(outcome)
    return found


def not_carried(outcome: TaskOutcome, findings: AgentFindings) -> bool:
    """Failed, stopped at a bound, or done on no tool result."""
    if outcome.status == "failed" or outcome.partial:
        return True
    return outcome.status == "succeeded" and not findings.succeeded


def strays(
    state: SupportState, outcome: TaskOutcome, findings: AgentFindings, domain: Domain
) -> bool:
    """Whether the change the agent asks the customer to confirm names a record id the
    request did not name and no result of the agent showed is the customer's."""
    asked = (state.get("confirmations") or {}).get(outcome.task_id)
    if outcome.status != "awaiting_confirmation" or not asked:
        return False
    shapes = id_shapes(domain)
    named = ids_in(list(asked["args"].values()), shapes)
    understanding = Understanding.model_validate(state["understanding"])
    request = {norm_id(v) for values in understanding.slots.values() for v in values}
    return bool(named - request - agent_own_ids(findings, domain, shapes))


def wrote(findings: AgentFindings, registry: SkillRegistry) -> bool:
    """Whether a call of the agent changed something, or may have."""
    return any(
        registry.is_side_effect(c.skill)
        and (c.status == "succeeded" or c.error_code in UNKNOWN_OUTCOME)
        for c in findings.calls
    )


def _findings(outcome: TaskOutcome) -> AgentFindings:
    # A goal that failed before its loop ran has no findings: it called nothing.
    try:
        return AgentFindings.model_validate(outcome.payload)
    except ValueError:
        return AgentFindings(goal="", stopped="done")


def _why(outcome: TaskOutcome) -> str:
    if outcome.partial:
        return "stopped at a bound"
    if outcome.status == "awaiting_confirmation":
        return "asked about a record the request did not name"
    return outcome.status if outcome.status == "failed" else "no tool result"
