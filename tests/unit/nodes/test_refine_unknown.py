"""An effect whose outcome is unknown is escalated at once and never retried."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from nodes.contracts import Plan, Task, TaskOutcome
from nodes.refine import refinable, refine
from nodes.routing import when_nothing_ready


def _state(code: str) -> dict[str, Any]:
    task = Task(id="t1", role="notifier", skill="send_notification_v1", args={})
    outcome = TaskOutcome(
        task_id="t1", skill=task.skill, role=task.role, status="failed", error_code=code
    )
    return {
        "audit_id": "aud-1",
        "plan": Plan(tasks=(task,)).model_dump(mode="json"),
        "outcomes": {"t1": outcome.model_dump(mode="json")},
    }


async def test_unknown_outcome_becomes_an_escalation_not_a_retry() -> None:
    state = _state("outcome_unknown")
    assert when_nothing_ready(state) == "refine"  # type: ignore[arg-type]
    update = await refine(state, Runtime(context=None))  # type: ignore[arg-type]
    [request] = update["pending"].values()
    assert request["kind"] == "escalation" and "outcome is unknown" in request["reason"]
    assert update["outcomes"]["t1"]["status"] == "failed"  # not back to pending
    after = {**state, "outcomes": update["outcomes"], "pending": {}}
    assert refinable(after) == []  # type: ignore[arg-type]
    assert when_nothing_ready(after) == "compose"  # type: ignore[arg-type]
