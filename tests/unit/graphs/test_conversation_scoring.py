"""Scoring one scripted turn: status, answer words, language, question, pending request."""

from __future__ import annotations

from typing import Any

from graphs.conversations.scoring import AskedQuestion, Option, TurnOutcome, judge
from graphs.conversations.script import Expect


def _expect(**fields: Any) -> Expect:
    return Expect.model_validate(fields)


def _asked(kind: str, text: str, *values: str) -> AskedQuestion:
    return AskedQuestion(kind=kind, text=text, options=[Option(value=v) for v in values])


DONE = TurnOutcome(status="completed", answer="Order #A1 is now Cancelled.")
ASKING = TurnOutcome(
    status="needs_input",
    answer="Which order?",
    question=_asked("clarify", "Which order do you mean?", "#A1", "A2"),
)
WAITING = TurnOutcome(
    status="interrupted",
    answer="",
    interrupts=[{"id": "apr-1", "kind": "approval", "skill": "change_v1", "args": {"id": "#A1"}}],
)


def test_a_turn_that_shows_what_was_expected_passes() -> None:
    expect = _expect(status="completed", contains=["#a1", "cancelled"], absent=["B9"], lang="en")
    assert judge(expect, DONE) == []
    assert judge(_expect(status=["failed", "completed"], any=["已取消", "cancelled"]), DONE) == []


def test_each_miss_is_its_own_problem() -> None:
    expect = _expect(status="failed", contains=["#A2"], any=["refund"], absent=["#a1"], lang="zh")
    assert judge(expect, DONE) == [
        "status completed, want failed",
        "answer lacks '#A2'",
        "answer has none of ['refund']",
        "answer has '#a1'",
        "answer not in zh",
    ]


def test_an_explicit_null_question_means_none_may_be_asked() -> None:
    assert judge(_expect(status="needs_input"), ASKING) == []
    assert judge(_expect(status="needs_input", question=None), ASKING) == [
        "asks a clarify question, want none"
    ]
    assert judge(_expect(status="completed", question=None), DONE) == []


def test_question_kind_text_and_options_are_checked() -> None:
    ok = {"kind": "clarify", "contains": ["which order"], "options": ["A1", "#A2"]}
    assert judge(_expect(status="needs_input", question=ok), ASKING) == []
    assert (
        judge(_expect(status="needs_input", question={"kind": "clarify", "offers": ["a2"]}), ASKING)
        == []
    )
    wrong = {"kind": "confirm", "options": ["#A1"], "offers": ["#A3"], "absent": ["A2"]}
    assert judge(_expect(status="needs_input", question=wrong), ASKING) == [
        "asks clarify, want confirm",
        "options ['#A1', 'A2'], want ['#A1']",
        "question does not offer '#A3'",
        "question has 'A2'",
    ]
    assert judge(_expect(status="completed", question={"kind": "confirm"}), DONE) == [
        "asks no question, want confirm"
    ]


def test_a_pending_request_needs_its_kind_skill_and_arguments() -> None:
    assert (
        judge(
            _expect(status="interrupted", interrupt={"skill": "change_v1", "args": {"id": "A1"}}),
            WAITING,
        )
        == []
    )
    (problem,) = judge(_expect(status="interrupted", interrupt={"args": {"id": "#A2"}}), WAITING)
    assert problem.startswith("no pending approval")
    (problem,) = judge(_expect(status="interrupted", interrupt={"kind": "escalation"}), WAITING)
    assert problem.startswith("no pending escalation")
    assert judge(_expect(status="interrupted", interrupt=None), WAITING) == [
        "pending ['change_v1'], want none"
    ]


def test_a_turn_without_a_status_passes_unless_the_api_refused_it() -> None:
    assert judge(_expect(), DONE) == [] and judge(_expect(), WAITING) == []
    refused = TurnOutcome(
        status="error", answer="thread 't' is completed; there is nothing to resume"
    )
    assert judge(_expect(), refused) == [
        "status error, want any other: thread 't' is completed; there is nothing to resume"
    ]
