"""Conditions on plan steps (`Task.when`) with a made-up flight desk: tested through the
read's result model when the step is ready, skipped before it runs when they do not hold,
validated against what the domain lets conditions test."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from pydantic import BaseModel, ConfigDict

from nodes.conditions import CONDITION_NOT_MET, field_value, verdict
from nodes.contracts import Condition, Plan, Task, TaskOutcome
from nodes.dispatch import dispatch, ready_tasks, unmet_conditions
from nodes.domain import ConditionField
from nodes.errors import PlanRejected
from nodes.planner.validate import validate_plan
from nodes.review import final_status
from nodes.state import SupportState, TaskOutcomeData, stored
from skills.contract import SkillMetadata
from skills.registry import LoadedSkill, SkillRegistry
from skills.roles import RolePermissions, RoleSpec


class Booking(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    booking_id: str
    status: str
    seats: int


def _skill(skill_id: str, output: type[BaseModel], *, side_effect: bool = False) -> LoadedSkill:
    metadata = SkillMetadata.model_validate(
        {"skill_id": skill_id, "version": "1.0.0", "description": skill_id,
         "cost_estimate": {"latency_ms": 10}, "risk": "low", "side_effect": side_effect}
    )  # fmt: skip
    return LoadedSkill(metadata=metadata, executor=None, path=Path(skill_id), output=output)  # type: ignore[arg-type]


REGISTRY = SkillRegistry(
    [
        _skill("get_booking_v1", Booking),
        _skill("rebook_v1", Booking, side_effect=True),
        _skill("notify_v1", BaseModel, side_effect=True),
    ]
)
BOOKED = Condition(task="t1", field="status", values=("booked", "waitlisted"), name="not_flown")
READ = Task(id="t1", role="desk", skill="get_booking_v1", args={"booking_id": "B7"})
REBOOK = Task(id="t2", role="desk", skill="rebook_v1", depends_on=("t1",), when=BOOKED)
TELL = Task(id="t3", role="desk", skill="notify_v1", depends_on=("t1", "t2"))
FIELDS = (ConditionField("get_booking_v1", "status", ("booked", "waitlisted", "flown")),)


def _read(status: str, payload: Any = None) -> TaskOutcomeData:
    body = {"booking_id": "B7", "status": status, "seats": 1} if payload is None else payload
    outcome = TaskOutcome(
        task_id="t1", skill="get_booking_v1", role="desk", status="succeeded", payload=body
    )
    return stored(outcome, TaskOutcomeData)


def _state(*tasks: Task, **outcomes: TaskOutcomeData) -> SupportState:
    plan = Plan(tasks=tasks)
    return cast(SupportState, {"plan": plan.model_dump(mode="json"), "outcomes": outcomes})


def test_the_field_is_read_through_the_result_model() -> None:
    assert field_value("get_booking_v1", {"booking_id": "B", "status": "flown", "seats": 2},
                       "status", REGISTRY) == "flown"  # fmt: skip
    text = json.dumps({"booking_id": "B", "status": "booked", "seats": 2})  # as MCP tools answer
    assert field_value("get_booking_v1", text, "status", REGISTRY) == "booked"
    # Not the model's shape, not a model field, not text: nothing to test.
    assert field_value("get_booking_v1", {"status": "booked"}, "status", REGISTRY) is None
    assert field_value("get_booking_v1", {"booking_id": "B", "status": "x", "seats": 2},
                       "copy", REGISTRY) is None  # fmt: skip
    assert field_value("get_booking_v1", {"booking_id": "B", "status": "x", "seats": 2},
                       "seats", REGISTRY) is None  # fmt: skip
    assert not verdict(BOOKED, _read("booked", payload={"status": "booked"}), REGISTRY).held


def test_a_condition_that_does_not_hold_skips_the_step_before_it_runs() -> None:
    state = _state(READ, REBOOK, t1=_read("flown"))
    skipped = unmet_conditions(state, REGISTRY)
    assert list(skipped) == ["t2"]
    outcome = skipped["t2"]
    assert (outcome["status"], outcome["error_code"], outcome["attempts"]) == (
        "skipped", CONDITION_NOT_MET, 0)  # fmt: skip
    assert "status is 'flown'" in (outcome["notice"] or "")
    # A pure function of the checkpointed state: the same state, the same answer.
    assert unmet_conditions(state, REGISTRY) == skipped


def test_a_condition_that_holds_lets_the_step_run() -> None:
    state = _state(READ, REBOOK, t1=_read("waitlisted"))
    assert unmet_conditions(state, REGISTRY) == {}
    assert [t.id for t in ready_tasks(state)] == ["t2"]


def test_the_steps_after_a_condition_skipped_one_still_run() -> None:
    state = _state(READ, REBOOK, TELL, t1=_read("flown"))
    runtime: Any = SimpleNamespace(context=SimpleNamespace(registry=REGISTRY))
    update = dispatch(state, runtime)
    assert set(update["outcomes"]) == {"t2"}
    after = _state(READ, REBOOK, TELL, t1=_read("flown"), t2=update["outcomes"]["t2"])
    assert [t.id for t in ready_tasks(after)] == ["t3"]
    assert "ready=['t3']" in update["trace"][0] and "condition not met=['t2']" in update["trace"][0]


def test_a_conditional_step_readied_by_a_skip_is_tested_in_the_same_pass() -> None:
    second = Task(id="t3", role="desk", skill="rebook_v1", depends_on=("t1", "t2"),
                  when=BOOKED)  # fmt: skip
    skipped = unmet_conditions(_state(READ, REBOOK, second, t1=_read("flown")), REGISTRY)
    assert sorted(skipped) == ["t2", "t3"]


def test_a_condition_skipped_write_is_a_completed_answer() -> None:
    state = _state(READ, REBOOK, t1=_read("flown"))
    skipped = unmet_conditions(state, REGISTRY)
    done = _state(READ, REBOOK, t1=_read("flown"), **skipped)
    assert final_status(done, REGISTRY) == "completed"
    blocked = {**skipped["t2"], "error_code": None}  # skipped because a step failed
    assert final_status(_state(READ, REBOOK, t1=_read("flown"), t2=blocked), REGISTRY) == "failed"


def _roles() -> dict[str, RoleSpec]:
    perms = RolePermissions(execute=("get_booking_v1", "rebook_v1", "notify_v1"))
    return {"desk": RoleSpec(name="desk", description="d", model_tier="rules", permissions=perms)}


def _validate(*tasks: Task, fields: tuple[ConditionField, ...] = FIELDS) -> Plan:
    return validate_plan(Plan(tasks=tasks), _roles(), frozenset(REGISTRY.skill_ids), "u",
                         bulk_args=(), conditions=fields)  # fmt: skip


def test_a_plan_condition_must_test_a_dependency_in_a_field_the_domain_allows() -> None:
    assert _validate(READ, REBOOK).task("t2").when == BOOKED
    cases = {
        "not a dependency": REBOOK.model_copy(update={"depends_on": ()}),
        "may not test": REBOOK.model_copy(update={"when": BOOKED.model_copy(update={"field": "seats"})}),
        "never takes": REBOOK.model_copy(update={"when": BOOKED.model_copy(update={"values": ("gone",)})}),
    }  # fmt: skip
    for message, task in cases.items():
        with pytest.raises(PlanRejected, match=message) as caught:
            _validate(READ, task)
        assert caught.value.code == "bad_condition"
    with pytest.raises(PlanRejected, match="may not test"):
        _validate(READ, REBOOK, fields=())  # a domain that plans no conditions


def test_rewiring_a_dependency_moves_its_condition_too() -> None:
    moved = REBOOK.rewired("t1", "t1r")
    assert moved.depends_on == ("t1r",) and moved.when is not None and moved.when.task == "t1r"
    assert TELL.rewired("t9", "t9r") is TELL
