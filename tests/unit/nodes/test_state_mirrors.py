"""The state channels' TypedDict mirrors stay in step with their contracts."""

from __future__ import annotations

import json
from typing import get_type_hints

import pytest
from pydantic import BaseModel

from nodes.contracts import (
    ApprovalRequest,
    Call,
    Condition,
    ConfirmationRequest,
    Decision,
    FocusEntity,
    Grant,
    HumanDecision,
    Option,
    Plan,
    Proposal,
    Question,
    ReviewVerdict,
    Task,
    TaskOutcome,
    Understanding,
)
from nodes.state import (
    ApprovalRequestData,
    CallData,
    ConditionData,
    ConfirmationRequestData,
    DecisionData,
    FocusEntityData,
    GrantData,
    HumanDecisionData,
    OptionData,
    PlanData,
    ProposalData,
    QuestionData,
    ReviewVerdictData,
    StateUpdate,
    SupportState,
    TaskData,
    TaskInput,
    TaskOutcomeData,
    UnderstandingData,
    grant_of,
    merge,
    stored,
)

MIRRORS: list[tuple[type[BaseModel], type]] = [
    (Understanding, UnderstandingData),
    (ConfirmationRequest, ConfirmationRequestData),
    (Option, OptionData),
    (Call, CallData),
    (Question, QuestionData),
    (FocusEntity, FocusEntityData),
    (Condition, ConditionData),
    (Task, TaskData),
    (Plan, PlanData),
    (TaskOutcome, TaskOutcomeData),
    (Grant, GrantData),
    (ApprovalRequest, ApprovalRequestData),
    (HumanDecision, HumanDecisionData),
    (Proposal, ProposalData),
    (Decision, DecisionData),
    (ReviewVerdict, ReviewVerdictData),
]


@pytest.mark.parametrize(("model", "mirror"), MIRRORS, ids=lambda m: m.__name__)
def test_every_contract_field_has_its_mirror_key(model: type[BaseModel], mirror: type) -> None:
    assert set(get_type_hints(mirror)) == set(model.model_fields)


def test_a_node_update_names_only_state_channels() -> None:
    assert set(get_type_hints(StateUpdate)) == set(get_type_hints(SupportState))


def test_a_grant_round_trips_through_the_checkpoint_as_json() -> None:
    grant = Grant(skill_id="rebook_v1", args={"seat": "12C"}, args_hash="h", approval_id="apr-1")
    data = json.loads(json.dumps(stored(grant, GrantData)))
    inp: TaskInput = {
        "task": stored(Task(id="t1", role="r", skill="rebook_v1"), TaskData),
        "user_id": "u",
        "audit_id": "a",
        "grant": data,
        "results": {},
        "attempt": 1,
    }
    assert grant_of(inp) == grant
    approval = grant.approval()
    assert (approval.approval_id, approval.skill_id, approval.args_hash) == (
        "apr-1",
        "rebook_v1",
        "h",
    )


def test_merge_removes_keys_written_as_none() -> None:
    assert merge({"a": 1, "b": 2}, {"a": None, "c": 3}) == {"b": 2, "c": 3}
