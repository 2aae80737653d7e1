"""Plan refinement after failures: retry, substitute a fallback, or escalate.

Inertia: a skill with a good recent success record is retried before it is
replaced, because one failure of a usually-healthy step is most likely
transient. Domain refusals (wrong status, not yours) are final answers, not
failures to refine.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from nodes.approval import escalation_request
from nodes.context import SupportContext
from nodes.contracts import Plan, Task, TaskOutcome
from nodes.state import SupportState

TRANSIENT = frozenset({"timeout", "network_error", "http_error", "circuit_open", "skill_error"})
MAX_ATTEMPTS = 2
GOOD_HISTORY = 0.8


def refinable(state: SupportState) -> list[TaskOutcome]:
    """Failed tasks whose failure is transient (worth another attempt)."""
    outcomes = [TaskOutcome.model_validate(o) for o in (state.get("outcomes") or {}).values()]
    return [o for o in outcomes if o.status == "failed" and o.error_code in TRANSIENT]


async def refine(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    ctx = runtime.context
    rounds = int(state.get("rounds") or 0) + 1
    failed = refinable(state)
    if rounds > ctx.max_rounds:
        reason = "automatic retries did not fix: " + ", ".join(
            f"{o.skill} ({o.error_code})" for o in failed
        )
        request = escalation_request(
            state["audit_id"], reason, tuple(o.error or "" for o in failed)
        )
        return {"rounds": rounds, "pending": {request.id: request.model_dump(mode="json")},
                "trace": [f"refine: escalate after {rounds - 1} rounds"]}  # fmt: skip
    plan = Plan.model_validate(state["plan"])
    tasks = list(plan.tasks)
    update: dict[str, Any] = {"rounds": rounds, "outcomes": {}}
    notes = []
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
            tasks.append(substitute)
            notes.append(f"replace {outcome.task_id} with {substitute.skill}")
    update["plan"] = plan.model_copy(update={"tasks": tuple(tasks)}).model_dump(mode="json")
    update["trace"] = [f"refine round {rounds}: {'; '.join(notes) or 'nothing to do'}"]
    return update


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


async def success_rate(pool: Any, skill: str, window: int = 20) -> float:
    """Share of successful calls among the skill's most recent calls (1.0 if none)."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT avg((status = 'success')::int) AS rate FROM"
            " (SELECT status FROM audit_events WHERE skill = %s ORDER BY id DESC LIMIT %s) AS recent",
            (skill, window),
        )
        row = await cur.fetchone()
    return 1.0 if row is None or row["rate"] is None else float(row["rate"])
