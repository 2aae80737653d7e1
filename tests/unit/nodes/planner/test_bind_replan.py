"""The planner's generic mechanisms with a made-up domain: `bind:` markers,
argument shaping, replanning from `replan_with`, and owned-id checks."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel

from nodes.contracts import Plan, Task, Understanding
from nodes.domain import SlotSpec
from nodes.errors import BindingError, ModelOutputInvalid
from nodes.planner.binding import bind_args
from nodes.planner.model_checks import _check_owned_ids
from nodes.planner.replan import can_replan, revise_plan
from skills.contract import SkillMetadata
from skills.errors import SkillLoadError
from skills.registry import LoadedSkill, SkillRegistry


class FlightPlanning:
    """A flight desk: `bind:seat` picks the first free seat; times are upper-cased."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def bind(self, marker: str, results: Mapping[str, Any]) -> Any:
        self.asked.append(marker)
        seats = [s for r in results.values() for s in r.get("free_seats", [])]
        if marker == "seat" and seats:
            return seats[0]
        raise BindingError(marker, "no free seat")

    def prepare_args(self, skill: str, args: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v.upper() if k == "time" else v for k, v in args.items()}


def test_markers_are_resolved_by_the_domain_and_args_shaped_for_the_skill() -> None:
    planning = FlightPlanning()
    args = {"flight": "LX318", "seat": "bind:seat", "time": "morning"}
    bound = bind_args(planning, "change_seat_v1", args, {"t1": {"free_seats": ["12C", "14A"]}})  # type: ignore[arg-type]
    assert bound == {"flight": "LX318", "seat": "12C", "time": "MORNING"}
    assert planning.asked == ["seat"]  # plain values are never handed to the resolver


def test_a_marker_the_results_cannot_fill_is_a_binding_error() -> None:
    with pytest.raises(BindingError, match="cannot fill seat: no free seat"):
        bind_args(FlightPlanning(), "change_seat_v1", {"seat": "bind:seat"}, {"t1": {}})  # type: ignore[arg-type]


def _skill(skill_id: str, *, side_effect: bool = False, **extra: Any) -> LoadedSkill:
    metadata = SkillMetadata.model_validate(
        {"skill_id": skill_id, "version": "1.0.0", "description": skill_id,
         "cost_estimate": {"latency_ms": 10}, "risk": "low", "side_effect": side_effect, **extra}
    )  # fmt: skip
    return LoadedSkill(metadata=metadata, executor=None, path=Path(skill_id), output=BaseModel)  # type: ignore[arg-type]


FALLBACK = {"skill": "get_booking_v1", "role": "desk", "args": ["booking_id"]}
REGISTRY = SkillRegistry(
    [
        _skill("get_booking_v1"),
        _skill("flight_status_v1", replan_with=FALLBACK),
        _skill("gate_info_v1"),
    ]
)


def _plan(*tasks: Task) -> Plan:
    return Plan(tasks=tasks, rationale="test")


def test_a_failed_step_is_replaced_by_its_declared_replacement() -> None:
    status = Task(id="t1", role="ops", skill="flight_status_v1", args={"booking_id": "B7", "x": 1})
    answer = Task(id="t2", role="ops", skill="gate_info_v1", depends_on=("t1",))
    assert can_replan(status, REGISTRY)
    plan, moved = revise_plan(_plan(status, answer), ["t1"], REGISTRY)
    added = plan.task("t1r")
    assert (added.role, added.skill, added.args) == ("desk", "get_booking_v1", {"booking_id": "B7"})
    assert plan.task("t2").depends_on == ("t1r",) and moved == {"t2"}


def test_a_replacement_already_in_the_plan_is_reused_not_run_twice() -> None:
    lookup = Task(id="t0", role="desk", skill="get_booking_v1", args={"booking_id": "B7"})
    status = Task(id="t1", role="ops", skill="flight_status_v1", args={"booking_id": "B7"})
    answer = Task(id="t2", role="ops", skill="gate_info_v1", depends_on=("t1",))
    plan, _ = revise_plan(_plan(lookup, status, answer), ["t1"], REGISTRY)
    assert [t.id for t in plan.tasks] == ["t0", "t1", "t2"]
    assert plan.task("t2").depends_on == ("t0",)


def test_no_replacement_without_a_declaration_or_its_arguments() -> None:
    assert not can_replan(Task(id="t1", role="ops", skill="gate_info_v1"), REGISTRY)
    assert not can_replan(Task(id="t1", role="ops", skill="flight_status_v1"), REGISTRY)
    gate = Task(id="t1", role="ops", skill="gate_info_v1")
    plan, moved = revise_plan(_plan(gate), ["t1"], REGISTRY)
    assert plan.tasks == (gate,) and moved == set()


def test_the_registry_refuses_a_replacement_it_does_not_hold() -> None:
    with pytest.raises(SkillLoadError, match="replan_with names unknown skill 'get_booking_v1'"):
        SkillRegistry([_skill("flight_status_v1", replan_with=FALLBACK)])


def test_an_unknown_skill_counts_as_a_write() -> None:
    registry = SkillRegistry([_skill("get_booking_v1"), _skill("rebook_v1", side_effect=True)])
    assert registry.is_side_effect("rebook_v1") and not registry.is_side_effect("get_booking_v1")
    assert registry.is_side_effect("no_such_skill_v1")


def test_an_owned_id_a_plan_uses_must_be_one_the_request_named() -> None:
    domain: Any = SimpleNamespace(
        understanding=SimpleNamespace(
            slots=(
                SlotSpec("booking_ids", "bookings", kind="identifier", pattern=r"B\d", owned=True),
                SlotSpec("emails", "e-mails", kind="identifier", pattern=r"\S+@\S+"),
            )
        )
    )
    understanding = Understanding(
        text="x", masked_text="x", lang="en", intents=("out_of_scope",), slots={}
    )
    _check_owned_ids(
        Task(id="t1", role="r", skill="s", args={"to": "a@b.c"}), understanding, domain
    )
    with pytest.raises(ModelOutputInvalid, match="t1: booking_ids value not in the request"):
        task = Task(id="t1", role="r", skill="s", args={"ids": ["B7"]})
        _check_owned_ids(task, understanding, domain)
