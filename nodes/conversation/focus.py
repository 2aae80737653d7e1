"""The entities in focus: the customer's own records a conversation named or showed.

Updated when a turn ends, from the ids the turn's request named (intake had
checked every one is the customer's: a turn naming another's is refused and
adds nothing) and the ids its succeeded results list as the customer's own.
Most recent first, one entry per record and turn, bounded, so "it", "that order"
and "the other one" resolve against what the customer just saw, and a position
("the second order") against the last list they were shown, in its order, even
after one of its records was named again.
"""

from __future__ import annotations

import re

from nodes.contracts import FocusEntity, Plan, TaskOutcome, Understanding
from nodes.domain import Domain
from nodes.quoting import norm_id
from nodes.state import FocusEntityData, SupportState, plan_of, stored

MAX_FOCUS = 24


def focus_of(state: SupportState) -> list[FocusEntity]:
    """The conversation's focus, most recent first."""
    return [FocusEntity.model_validate(e) for e in state.get("focus") or []]


def updated_focus(state: SupportState, domain: Domain) -> list[FocusEntityData]:
    """The focus once this turn ends: its records first, then the earlier ones."""
    turn = int(state.get("turn") or 0)
    named = [] if state.get("refusal") else _named(state, domain)
    fresh = [e.model_copy(update={"turn": turn}) for e in named]
    # A record named again stays in the earlier turn's list too (its position there).
    kept = [e for e in focus_of(state) if e.turn != turn]
    return [stored(e, FocusEntityData) for e in [*fresh, *kept][:MAX_FOCUS]]


def _named(state: SupportState, domain: Domain) -> list[FocusEntity]:
    raw = state.get("understanding")
    understanding = Understanding.model_validate(raw) if raw else None
    outcomes = {k: TaskOutcome.model_validate(v) for k, v in (state.get("outcomes") or {}).items()}
    shapes = _owned_shapes(domain)
    found: dict[str, FocusEntity] = {}
    mentioned = [
        (slot, value)
        for slot in shapes
        for value in (understanding.slot(slot) if understanding else ())
    ]
    shown = [(s, v) for v in _shown(plan_of(state), outcomes, domain) if (s := _slot_of(v, shapes))]
    for slot, value in [*mentioned, *shown]:
        found.setdefault(norm_id(value), FocusEntity(slot=slot, value=value, turn=0))
    return list(found.values())


def _shown(plan: Plan, outcomes: dict[str, TaskOutcome], domain: Domain) -> list[str]:
    """Ids the turn's succeeded steps acted on or listed as the customer's own, in plan order."""
    values: list[str] = []
    for task in plan.tasks:
        outcome = outcomes.get(task.id)
        if outcome is None or outcome.status != "succeeded":
            continue
        values.extend(v for v in task.args.values() if isinstance(v, str))
        values.extend(domain.answers.own_ids(outcome))
    return values


def _owned_shapes(domain: Domain) -> dict[str, re.Pattern[str]]:
    """Owned identifier slot -> its whole-value shape."""
    return {
        s.name: re.compile(rf"(?:{s.pattern})", re.IGNORECASE)
        for s in domain.understanding.slots
        if s.owned and s.pattern
    }


def _slot_of(value: str, shapes: dict[str, re.Pattern[str]]) -> str | None:
    return next((slot for slot, shape in shapes.items() if shape.fullmatch(value)), None)
