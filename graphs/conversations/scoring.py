"""Judge one scripted turn: what it showed against what the script expects.

Scoring is on status and answer content, not on wording: words are matched
case-insensitively as substrings, ids in question options without a leading
"#", and a turn passes when no check finds a problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from checkpoints.errors import RolegraphError
from graphs.api import RunReport
from graphs.conversations.script import Expect, InterruptExpect, QuestionExpect
from nodes.language import lang_of


class Option(BaseModel):
    """One answer a question offers."""

    model_config = ConfigDict(frozen=True)

    value: str
    label: str = ""


class AskedQuestion(BaseModel):
    """The question a turn ended with (`RunReport.question`)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    text: str = ""
    options: list[Option] = []


@dataclass(frozen=True)
class TurnOutcome:
    """What one turn showed: its report, or the error the API refused it with."""

    status: str
    answer: str
    thread_id: str | None = None
    question: AskedQuestion | None = None
    interrupts: list[dict[str, Any]] = field(default_factory=list)
    intents: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, report: RunReport) -> TurnOutcome:
        return cls(
            status=report.status,
            answer=report.answer,
            thread_id=report.thread_id,
            question=_question(report.question),
            interrupts=list(report.interrupts),
            intents=list(report.intents),
        )

    @classmethod
    def refused(cls, error: RolegraphError) -> TurnOutcome:
        """A turn the API would not take (another customer's thread, nothing to approve)."""
        return cls(status="error", answer=str(error))

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "answer": self.answer,
            "question": self.question.model_dump() if self.question else None,
            "interrupts": self.interrupts,
            "intents": self.intents,
        }


def judge(expect: Expect, got: TurnOutcome) -> list[str]:
    """Every way `got` misses `expect`, one short line each (empty: the turn passed)."""
    problems: list[str] = []
    problems += _status_problems(expect, got)
    problems += _words(got.answer, expect)
    if expect.lang is not None and got.status != "error" and lang_of(got.answer) != expect.lang:
        problems.append(f"answer not in {expect.lang}")
    if expect.intents is not None and sorted(got.intents) != sorted(expect.intents):
        problems.append(f"intents {sorted(got.intents)}, want {sorted(expect.intents)}")
    if "question" in expect.model_fields_set:
        problems += _question_problems(expect.question, got.question)
    if expect.interrupt is not None:
        problems += _interrupt_problems(expect.interrupt, got.interrupts)
    elif "interrupt" in expect.model_fields_set and got.interrupts:
        problems.append(
            f"pending {[r.get('skill') or r.get('kind') for r in got.interrupts]}, want none"
        )
    return problems


def _status_problems(expect: Expect, got: TurnOutcome) -> list[str]:
    if expect.status is None:
        return [f"status error, want any other: {got.answer[:80]}"] if got.status == "error" else []
    wanted = expect.status if isinstance(expect.status, list) else [expect.status]
    return [] if got.status in wanted else [f"status {got.status}, want {'|'.join(wanted)}"]


def _words(answer: str, expect: Expect) -> list[str]:
    text = answer.casefold()
    problems = [f"answer lacks {w!r}" for w in expect.contains if w.casefold() not in text]
    if expect.any_of and not any(w.casefold() in text for w in expect.any_of):
        problems.append(f"answer has none of {expect.any_of}")
    problems += [f"answer has {w!r}" for w in expect.absent if w.casefold() in text]
    return problems


def _question_problems(want: QuestionExpect | None, got: AskedQuestion | None) -> list[str]:
    if want is None:
        return [] if got is None else [f"asks a {got.kind} question, want none"]
    if got is None:
        return [f"asks no question, want {want.kind}"]
    problems = [] if got.kind == want.kind else [f"asks {got.kind}, want {want.kind}"]
    text = got.text.casefold()
    problems += [f"question lacks {w!r}" for w in want.contains if w.casefold() not in text]
    offered = {_id(o.value) for o in got.options}
    if want.options is not None and offered != {_id(v) for v in want.options}:
        problems.append(f"options {[o.value for o in got.options]}, want {want.options}")
    problems += [f"question does not offer {v!r}" for v in want.offers if _id(v) not in offered]
    shown = " ".join([got.text, *(f"{o.value} {o.label}" for o in got.options)]).casefold()
    problems += [f"question has {w!r}" for w in want.absent if w.casefold() in shown]
    return problems


def _interrupt_problems(want: InterruptExpect, got: list[dict[str, Any]]) -> list[str]:
    for request in got:
        same = request.get("kind") == want.kind and want.skill in (None, request.get("skill"))
        if same and _has_args(request.get("args") or {}, want.args):
            return []
    shown = [(r.get("kind"), r.get("skill"), r.get("args")) for r in got]
    return [f"no pending {want.kind} {want.skill or ''} {want.args or ''}; pending: {shown}"]


def _has_args(args: Mapping[str, Any], want: Mapping[str, Any]) -> bool:
    return all(_id(str(args.get(k))) == _id(str(v)) for k, v in want.items())


def _id(value: str) -> str:
    return value.strip().lstrip("#").casefold()


def _question(raw: object) -> AskedQuestion | None:
    if raw is None:
        return None
    if isinstance(raw, BaseModel):
        raw = raw.model_dump(mode="json")
    return AskedQuestion.model_validate(raw)
