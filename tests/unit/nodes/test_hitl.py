"""LangChain v1's human-in-the-loop schema both ways: rolegraph's pending requests
as `action_requests`/`review_configs`, and `{"decisions": [...]}` (or the by-id map)
as rolegraph decisions — every value that fits no pending request is refused."""

from __future__ import annotations

from typing import Any

import pytest

from nodes.contracts import ApprovalRequest, HumanDecision
from nodes.errors import AnswerRefused
from nodes.hitl import args_schema, interrupt_value, requests_in
from nodes.resume_value import read_answer
from skills.contract import ParameterSpec

WRITE = ApprovalRequest(
    id="apr-1",
    kind="approval",
    task_id="t1",
    skill="close_account_v1",
    risk="high",
    args={"account_id": "A-1", "note": "moving away"},
    args_hash="h1",
    reason="high-risk side effect needs approval",
    audit_id="aud-1",
)
SECOND = WRITE.model_copy(update={"id": "apr-2", "task_id": "t2", "args": {"account_id": "A-2"}})
ESCALATION = ApprovalRequest(
    id="esc-1",
    kind="escalation",
    reason="the customer asked for a person",
    evidence=("turn 1: I want a human",),
    audit_id="aud-1",
)


def test_pending_requests_become_action_requests_and_review_configs_in_order() -> None:
    value = interrupt_value([WRITE, ESCALATION])
    assert value["action_requests"] == [
        {
            "name": "close_account_v1",
            "args": {"account_id": "A-1", "note": "moving away"},
            "description": "high-risk side effect needs approval (risk: high)",
        },
        {
            "name": "escalation",
            "args": {},
            "description": "the customer asked for a person\nturn 1: I want a human",
        },
    ]
    assert value["review_configs"] == [
        {"action_name": "close_account_v1", "allowed_decisions": ["approve", "edit", "reject"]},
        {"action_name": "escalation", "allowed_decisions": ["respond"]},
    ]
    # Rolegraph's own fields ride along, unchanged, for the CLI and the inbox.
    assert requests_in(value) == [WRITE.model_dump(mode="json"), ESCALATION.model_dump(mode="json")]
    assert requests_in([WRITE.model_dump(mode="json")]) == [WRITE.model_dump(mode="json")]
    assert requests_in({"action_requests": []}) == requests_in(None) == []


def test_the_args_schema_fixes_the_record_an_edit_may_not_move() -> None:
    parameters = {
        "account_id": ParameterSpec(type="string", description="the account", target=True),
        "tags": ParameterSpec(type="array[string]", required=False),
    }
    assert args_schema(parameters, WRITE) == {
        "type": "object",
        "properties": {
            "account_id": {"type": "string", "description": "the account", "const": "A-1"},
            "tags": {"type": "array", "items": {"type": "string"}, "description": ""},
        },
        "required": ["account_id"],
    }


def test_langchain_decisions_map_onto_rolegraph_decisions_in_order() -> None:
    edited = {"name": "close_account_v1", "args": {"account_id": "A-2", "note": "x"}}
    answer = {
        "decisions": [
            {"type": "reject", "message": "no"},
            {"type": "edit", "edited_action": edited},
        ]
    }
    assert read_answer(answer, [WRITE, SECOND]) == {
        "apr-1": HumanDecision(decision="reject", message="no"),
        "apr-2": HumanDecision(decision="edit", args={"account_id": "A-2", "note": "x"}),
    }
    assert read_answer({"decisions": [{"type": "approve"}]}, [WRITE]) == {
        "apr-1": HumanDecision(decision="approve")
    }
    reply = {"decisions": [{"type": "respond", "message": "A colleague will call you."}]}
    assert read_answer(reply, [ESCALATION]) == {
        "esc-1": HumanDecision(decision="reply", message="A colleague will call you.")
    }


def test_the_by_id_map_and_a_bare_decision_still_answer() -> None:
    assert read_answer({"apr-2": {"decision": "approve"}}, [WRITE, SECOND]) == {
        "apr-2": HumanDecision(decision="approve")
    }
    assert read_answer("reject", [WRITE]) == {"apr-1": HumanDecision(decision="reject")}
    assert read_answer({"decision": "approve"}, [WRITE]) == {
        "apr-1": HumanDecision(decision="approve")
    }


@pytest.mark.parametrize(
    ("answer", "pending", "says"),
    [
        ({"decisions": [{"type": "approve"}] * 2}, [WRITE], "2 decision(s) for 1 action request"),
        ({"decisions": []}, [WRITE], "0 decision(s) for 1"),
        (
            {"decisions": [{"type": "respond", "message": "hi"}]},
            [WRITE],
            "'respond' is not allowed",
        ),
        (
            {"decisions": [{"type": "approve"}]},
            [ESCALATION],
            "'approve' is not allowed for escalation",
        ),
        ({"decisions": [{"type": "accept"}]}, [WRITE], "not LangChain HITL decisions"),
        ({"decisions": [{"type": "approve", "extra": 1}]}, [WRITE], "not LangChain HITL decisions"),
        (
            {
                "decisions": [
                    {"type": "edit", "edited_action": {"name": "delete_all", "args": {"a": 1}}}
                ]
            },
            [WRITE],
            "an edit keeps the action 'close_account_v1'",
        ),
        ({"decisions": "approve"}, [WRITE], "not LangChain HITL decisions"),
        ({"approved": True}, [WRITE], "no pending request 'approved'"),
        ({"apr-9": {"decision": "approve"}}, [WRITE], "no pending request 'apr-9'; pending: apr-1"),
        ({"apr-1": {"decision": "yes"}}, [WRITE], "apr-1: not a decision"),
        ({"esc-1": {"decision": "approve"}}, [ESCALATION], "esc-1 is an escalation"),
        (["approve"], [WRITE], "answers no pending request"),
        ({}, [WRITE], "answers no pending request"),
        ({"decisions": [{"type": "approve"}]}, [], "nothing waits for a decision"),
        ({"apr-1": "a\x00b"}, [WRITE], "NUL"),
    ],
)
def test_a_value_that_fits_no_pending_request_is_refused(
    answer: Any, pending: list[ApprovalRequest], says: str
) -> None:
    with pytest.raises(AnswerRefused) as refused:
        read_answer(answer, pending)
    assert says in str(refused.value)
    assert "\n" not in str(refused.value)
