"""Corrections: "sorry, I meant #W…", "我说错了，是#W…".

A customer who names the wrong record says so with the right one and nothing
else to read: the message asks no request of its own. It means the request
they just made, on the record they name now:

- with a confirmation open, the stated change is withdrawn and the same request
  is asked again for the named record (its own confirmation follows);
- with nothing open, the last turn's request goes on with the named record.

And a reference in a turn that names a record itself ("what about #W2, can you
cancel that one?") points at that record, not at an older one in focus.
Intake still checks every named record is the customer's own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from nodes.context import SupportContext
from nodes.contracts import FocusEntity, Understanding
from nodes.conversation.record import TurnRecord, record_of
from nodes.conversation.words import CORRECTION
from nodes.domain import OUT_OF_SCOPE
from nodes.state import SupportState


def named_first(
    ctx: SupportContext, reading: Understanding, focus: Sequence[FocusEntity], turn: int
) -> list[FocusEntity]:
    """The focus with the owned records the turn itself names as its newest entries."""
    named = [
        FocusEntity(slot=spec.name, value=value, turn=turn)
        for spec in ctx.domain.understanding.slots
        if spec.owned
        for value in reading.slot(spec.name)
    ]
    return [*named, *(e for e in focus if e.turn != turn)]


def carried_over(
    state: SupportState, reading: Understanding, bare: Understanding | None = None
) -> Understanding | None:
    """The last turn's request on the records a correction names; None when the turn
    is no correction (it asks something itself, names nothing, or nothing came before).
    `bare` is the text read without the ids it names."""
    if not CORRECTION.search(reading.text.lower()) or not _only_names(reading, bare):
        return None
    last = _last_record(state)
    if last is None or last.status == "refused" or not _asked(last.intents):
        return None
    return reading.model_copy(update={"intents": last.intents, "uncertain": (), "targets": {}})


def retargeted(
    request: str, asked: Understanding, reading: Understanding, bare: Understanding | None = None
) -> str | None:
    """`request` on the records `reading` names instead of those `asked` named, when the
    reply asks nothing but names other records of the same kind; else None."""
    if not (_asks_nothing(reading) or _only_names(reading, bare)):
        return None
    text, changed = request, False
    for name, values in reading.slots.items():
        before = asked.slot(name)
        fresh = [v for v in values if v not in before]
        if not before or not fresh or not all(_in(v, text) for v in before):
            continue  # only ids the request wrote out can be swapped for others
        for old in before:
            text = re.sub(re.escape(old.lstrip("#")), " ", text, flags=re.IGNORECASE)
        text = re.sub(r"#\s", " ", f"{text} ").strip() + " " + " ".join(fresh)
        changed = True
    return text if changed else None


def _asks_nothing(reading: Understanding) -> bool:
    """Reads as no request, is not screened, and names some record."""
    return (
        reading.intents == (OUT_OF_SCOPE,)
        and not reading.injection
        and not reading.uncertain
        and any(reading.slots.values())
    )


def _only_names(reading: Understanding, bare: Understanding | None) -> bool:
    """Asks nothing but names records; a correction's words around an id ("my mistake,
    #W…") may read as a question about it, so they are judged without the id."""
    if _asks_nothing(reading):
        return True
    if bare is None or reading.injection or not CORRECTION.search(reading.text.lower()):
        return False
    return _asks_nothing(bare.model_copy(update={"slots": reading.slots}))


def _asked(intents: Sequence[str]) -> bool:
    return bool(intents) and tuple(intents) != (OUT_OF_SCOPE,)


def _last_record(state: SupportState) -> TurnRecord | None:
    for message in reversed(state.get("messages") or []):
        if (found := record_of(message)) is not None:
            return found
    return None


def _in(value: str, text: str) -> bool:
    return value.lstrip("#").lower() in text.lower()
