"""The turn record each answer carries: what the turn was about and how it ended.

`respond` puts it in the answer message's `response_metadata` (never sent to a
model, invisible in a chat view); compression summarises from these records
rather than from the answers' prose. Ids are only those the turn found to be
the customer's own, and facts only those the reviewed answer stated.
"""

from __future__ import annotations

from collections.abc import Iterable

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, ConfigDict, ValidationError

from nodes.contracts import TaskOutcome, TaskStatus, Understanding
from nodes.domain import Domain
from nodes.state import RunStatus, SupportState

RECORD_KEY = "rolegraph_turn"
MAX_ITEMS = 12
"""Most ids, facts or steps one record lists (the record stays small)."""


class StepRecord(BaseModel):
    """One step the turn ran, and how it ended."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    skill: str
    status: TaskStatus


class TurnRecord(BaseModel):
    """A turn in short: intents, steps with their status, owned ids, the turn's status."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    turn: int
    status: RunStatus
    intents: tuple[str, ...] = ()
    steps: tuple[StepRecord, ...] = ()
    ids: tuple[str, ...] = ()
    """Ids of the customer's own records the turn named or listed."""
    facts: tuple[str, ...] = ()
    """Ids and amounts the reviewed answer stated (the domain's `DomainAnswers.facts`)."""
    screened: bool = False
    """The request was injection-screened: its text is never summarised."""


def turn_record(state: SupportState, domain: Domain, status: RunStatus) -> TurnRecord:
    """The record of the turn `state` ends with `status`."""
    raw = state.get("understanding")
    understanding = Understanding.model_validate(raw) if raw else None
    outcomes = [TaskOutcome.model_validate(o) for o in (state.get("outcomes") or {}).values()]
    answer = state.get("draft") or ""
    return TurnRecord(
        turn=int(state.get("turn") or 0),
        status=status,
        intents=understanding.intents if understanding else (),
        steps=tuple(StepRecord(skill=o.skill, status=o.status) for o in outcomes[:MAX_ITEMS]),
        ids=_first(_owned_ids(domain, understanding, outcomes, refused=bool(state.get("refusal")))),
        facts=_first(m.group(0) for m in domain.answers.facts.finditer(answer)),
        screened=bool(understanding and understanding.injection),
    )


def record_metadata(record: TurnRecord) -> dict[str, object]:
    """The `response_metadata` of an answer message carrying `record`."""
    return {RECORD_KEY: record.model_dump(mode="json")}


def record_of(message: BaseMessage) -> TurnRecord | None:
    """The turn record an answer message carries; None for any other message."""
    raw = message.response_metadata.get(RECORD_KEY) if message.type == "ai" else None
    if raw is None:
        return None
    try:
        return TurnRecord.model_validate(raw)
    except ValidationError:
        return None  # not one of ours: summarised from its text instead


def _owned_ids(
    domain: Domain,
    understanding: Understanding | None,
    outcomes: list[TaskOutcome],
    *,
    refused: bool,
) -> Iterable[str]:
    # A refused turn may have named someone else's record: it owns nothing.
    if understanding is not None and not refused:
        for spec in domain.understanding.slots:
            if spec.owned:
                yield from understanding.slot(spec.name)
    for outcome in outcomes:
        if outcome.status == "succeeded":
            yield from domain.answers.own_ids(outcome)


def _first(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))[:MAX_ITEMS]
