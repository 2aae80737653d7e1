"""Plan refinement after failures: retry, substitute a fallback, or escalate.

Inertia: a skill with a good recent success record is retried before it is
replaced, because one failure of a usually-healthy step is most likely
transient. Domain refusals (wrong status, not yours) are final answers, not
failures to refine.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from checkpoints import audit
from checkpoints.opening import Pool
from nodes.approval import escalation_request
from nodes.context import SupportContext
from nodes.contracts import Task, TaskOutcome
from nodes.dispatch import status_of
from nodes.planner.replan import can_replan
from nodes.state import SupportState, plan_of

TRANSIENT = frozenset(
    {
        "timeout",
        "network_error",
        "http_error",
        "circuit_open",
        "skill_error",
        "database_unavailable",
    }
)
# Never retried: a side effect that may or may not have happened goes to a human at once.
UNKNOWN_OUTCOME = frozenset({"outcome_unknown"})
MAX_ATTEMPTS = 2
MAX_ROUNDS = 2  # refine rounds before a human is asked
GOOD_HISTORY = 0.8


def refinable(state: SupportState) -> list[TaskOutcome]:
    """Failed tasks whose failure is transient (worth another attempt)."""
    outcomes = [TaskOutcome.model_validate(o) for o in (state.get("outcomes") or {}).values()]
    return [
        o for o in outcomes if o.status == "failed" and o.error_code in TRANSIENT | UNKNOWN_OUTCOME
    ]


def _escalate_unknown(state: SupportState, unknown: list[TaskOutcome]) -> dict[str, Any]:
    """Ask an operator to check effects of unknown outcome; they are never re-run here."""
    reason = "the outcome is unknown and must be checked before anything runs again: " + ", ".join(
        f"{o.skill} ({o.task_id})" for o in unknown
    )
    request = escalation_request(state["audit_id"], reason, tuple(o.error or "" for o in unknown))
    settled = {
        o.task_id: o.model_copy(update={"error_code": "escalated"}).model_dump(mode="json")
        for o in unknown
    }
    return {
        "pending": {request.id: request.model_dump(mode="json")},
        "outcomes": settled,
        "trace": [f"refine: escalate unknown outcome of {', '.join(settled)}"],
    }


async def refine(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    ctx = runtime.context
    unknown = [o for o in refinable(state) if o.error_code in UNKNOWN_OUTCOME]
    if unknown:
        return _escalate_unknown(state, unknown)
    rounds = int(state.get("rounds") or 0) + 1
    failed = refinable(state)
    if rounds > MAX_ROUNDS:
        reason = "automatic retries did not fix: " + ", ".join(
            f"{o.skill} ({o.error_code})" for o in failed
        )
        # Codes, not error text: the request is part of the customer's thread
        # state; the operator reads the raw text in the audit trail.
        evidence = tuple(f"{o.task_id} {o.skill}: {o.error_code}" for o in failed)
        request = escalation_request(state["audit_id"], reason, evidence)
        return {"rounds": rounds, "pending": {request.id: request.model_dump(mode="json")},
                "trace": [f"refine: escalate after {rounds - 1} rounds"]}  # fmt: skip
    plan = plan_of(state)
    tasks = list(plan.tasks)
    update: dict[str, Any] = {"rounds": rounds, "outcomes": {}}
    notes: list[str] = []
    replan: list[str] = []
    for outcome in failed:
        history = await success_rate(ctx.pool, outcome.skill)
        fallback = _fallback(ctx, plan.task(outcome.task_id))
        if outcome.attempts < MAX_ATTEMPTS and (history >= GOOD_HISTORY or fallback is None):
            # Back to pending, keeping the attempt count: dispatch runs it again.
            update["outcomes"][outcome.task_id] = outcome.model_copy(
                update={"status": "pending"}
            ).model_dump(mode="json")
            notes.append(f"retry {outcome.task_id} (history {history:.0%})")
        elif fallback is not None:
            substitute = fallback.model_copy(update={"id": f"{outcome.task_id}f{rounds}"})
            tasks = [t.rewired(outcome.task_id, substitute.id) for t in tasks] + [substitute]
            notes.append(f"replace {outcome.task_id} with {substitute.skill}")
        elif can_replan(plan.task(outcome.task_id), ctx.registry):
            replan.append(outcome.task_id)
            notes.append(f"replan around {outcome.task_id}")
            continue
        else:
            continue
        # Steps skipped because this one failed get their chance again.
        for dependent in _dependents(tasks, outcome.task_id):
            if status_of(state, dependent) == "skipped":
                update["outcomes"][dependent] = None
    update["plan"] = plan.model_copy(update={"tasks": tuple(tasks)}).model_dump(mode="json")
    update["trace"] = [f"refine round {rounds}: {'; '.join(notes) or 'nothing to do'}"]
    update["replan"] = replan or None
    return update


def _dependents(tasks: list[Task], task_id: str) -> set[str]:
    """Every task that depends on `task_id`, directly or through others."""
    found: set[str] = set()
    frontier = {task_id}
    while frontier:
        frontier = {t.id for t in tasks if set(t.depends_on) & frontier} - found
        found |= frontier
    return found


def _fallback(ctx: SupportContext, task: Task) -> Task | None:
    skill = ctx.registry.lookup(task.skill)
    if skill is None:
        return None
    for policy in skill.metadata.error_handling.values():
        substitute = policy.fallback_skill
        role = ctx.roles.get(task.role)
        if substitute and role is not None and substitute in role.execute:
            return task.model_copy(update={"skill": substitute})
    return None


async def success_rate(pool: Pool, skill: str, window: int = 20) -> float:
    """Share of successful calls among the skill's most recent calls (1.0 if none)."""
    async with pool.connection() as conn:
        rate = await audit.recent_success_rate(conn, skill, window)
    return 1.0 if rate is None else rate
