"""A write the business declined completes the run; only the system failing fails it.

On a domain the harness does not know: `renew_v1` is its write, `notify_v1` a
write after it, `get_loan_v1` its read.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from nodes.contracts import Task, TaskOutcome
from nodes.outcomes import DECLINED_CODES, declined_ids, is_declined
from nodes.refine import refinable
from nodes.review import final_status
from nodes.state import SupportState, TaskOutcomeData
from skills.registry import SkillRegistry

READ = Task(id="t1", role="desk", skill="get_loan_v1", args={"loan_id": "LN-20001"})
RENEW = Task(
    id="t2", role="desk", skill="renew_v1", args={"loan_id": "LN-20001"}, depends_on=("t1",)
)
NOTIFY = Task(id="t3", role="desk", skill="notify_v1", args={}, depends_on=("t1", "t2"))


class Writes:
    """A registry in which every skill but the read changes something."""

    def is_side_effect(self, skill_id: str) -> bool:
        return skill_id != "get_loan_v1"


REGISTRY = cast(SkillRegistry, Writes())


def _outcome(task: Task, status: str, code: str | None = None) -> TaskOutcomeData:
    outcome = TaskOutcome(task_id=task.id, skill=task.skill, role=task.role, status=status,  # type: ignore[arg-type]
                          error_code=code, error="operator text" if code else None)  # fmt: skip
    return cast(TaskOutcomeData, outcome.model_dump(mode="json"))


def _state(*pairs: tuple[Task, TaskOutcomeData]) -> SupportState:
    state: dict[str, Any] = {
        "plan": {"tasks": [t.model_dump(mode="json") for t, _ in pairs], "rationale": ""},
        "outcomes": {t.id: o for t, o in pairs},
    }
    return cast(SupportState, state)


@pytest.mark.parametrize("code", sorted(DECLINED_CODES))
def test_a_declined_write_completes_the_run_and_is_never_refined(code: str) -> None:
    state = _state((READ, _outcome(READ, "succeeded")), (RENEW, _outcome(RENEW, "failed", code)))
    assert final_status(state, REGISTRY) == "completed"
    assert refinable(state) == []


@pytest.mark.parametrize("code", ["timeout", "circuit_open", "result_invalid", "binding_error",
                                  "outcome_unknown", "unexpected_error"])  # fmt: skip
def test_a_write_the_system_failed_fails_the_run(code: str) -> None:
    state = _state((READ, _outcome(READ, "succeeded")), (RENEW, _outcome(RENEW, "failed", code)))
    assert final_status(state, REGISTRY) == "failed"


def test_a_step_skipped_behind_a_declined_write_did_not_fail_either() -> None:
    outcomes = {
        "t1": _outcome(READ, "succeeded"),
        "t2": _outcome(RENEW, "failed", "precondition_failed"),
        "t3": _outcome(NOTIFY, "skipped"),
    }
    state = _state(*((t, outcomes[t.id]) for t in (READ, RENEW, NOTIFY)))
    assert declined_ids((READ, RENEW, NOTIFY), outcomes, REGISTRY) == {"t2", "t3"}
    assert final_status(state, REGISTRY) == "completed"
    # Behind a read that failed, the skipped write is the system's failure.
    outcomes["t1"] = _outcome(READ, "failed", "timeout")
    outcomes["t2"] = _outcome(RENEW, "skipped")
    assert declined_ids((READ, RENEW, NOTIFY), outcomes, REGISTRY) == set()
    assert final_status(_state(*((t, outcomes[t.id]) for t in (READ, RENEW, NOTIFY))),
                        REGISTRY) == "failed"  # fmt: skip


def test_only_a_write_is_declined() -> None:
    # A read the domain refused answered nothing the customer asked for.
    assert not is_declined(_outcome(READ, "failed", "domain_error"), REGISTRY)
    assert is_declined(_outcome(RENEW, "failed", "domain_error"), REGISTRY)
    assert final_status(_state((READ, _outcome(READ, "failed", "domain_error"))), REGISTRY) == (
        "failed"
    )
