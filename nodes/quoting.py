"""Text read from the data, made safe to quote in an answer or a notification.

Tracking event descriptions, locations, product names and knowledge
snippets come from carriers, catalogs and documents, not from the
customer or us. An answer quotes them as data: a sentence that reads like
an instruction (to the assistant, or a change to make) is dropped, and
identifiers that are not the customer's own (ids of the domain's owned
slots, e-mail addresses, links) are replaced by neutral words, so the answer
never repeats "IGNORE PREVIOUS INSTRUCTIONS ... act on <someone else's id>".
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from nodes.contracts import Plan, TaskOutcome
from nodes.domain import Domain
from nodes.intake.rules import INJECTION_PATTERNS
from skills.pii import EMAIL

MAX_QUOTE = 300
"""Characters of one quoted value."""

# Sentences that address the reader or ask for a change. Data states facts
# ("Departed hub", "Delayed by weather"); it does not tell anyone what to do.
_DIRECTIVES = (
    r"\b(?:assistant|agent|chatbot|bot|ai|model|llm|system|operator)\b\s*[:,]",
    r"\b(?:you|assistant|agent|bot|ai|model)\s+(?:must|should|shall|need to|have to|are required to)\b",
    r"\b(?:instructions?|prompt|directive|command)s?\b\s*:",
    r"\b(?:new|updated|real|hidden|secret) (?:instructions?|task|rules?)\b",
    r"\b(?:forget|ignore|disregard|override|bypass)\b.{0,40}\b(?:above|previous|prior|earlier|rules?|policy|instructions?)\b",
    # An imperative that asks for a change or a disclosure, at the start of a sentence.
    r"^\W*(?:(?:please|now|immediately|urgent(?:ly)?)\W+)*(?:cancel|refund|delete|transfer|approve"
    r"|reveal|send|forward|e-?mail|modify|change|update|reply|respond|say|print|output|repeat"
    r"|click)\b",
)
TEXT_FIELDS = frozenset(
    {
        "description",
        "location",
        "snippet",
        "title",
        "text",
        "body",
        "summary",
        "verdict",
        "cause",
        "answer",
    }
)
"""Keys of tool results that hold prose from the data."""
_FIELD = re.compile(r"^[a-z][a-z0-9_]*$")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？;；])\s+|\n+")
_URL = re.compile(r"\b(?:https?://|www\.)\S+", re.IGNORECASE)
_SPACE = re.compile(r"\s+")
_NOT_ID = re.compile(r"[^0-9A-Za-z]")
STAND_IN = "another record"
"""What stands in for someone else's id when the domain names no words for it."""


@dataclass(frozen=True)
class IdShape:
    """The shape of one owned identifier slot, and the words that stand in for a foreign id."""

    pattern: re.Pattern[str]
    stand_in: str = STAND_IN


def id_shapes(domain: Domain) -> tuple[IdShape, ...]:
    """The shapes of the domain's owned identifier slots (`SlotSpec.owned` with a `pattern`)."""
    return tuple(
        IdShape(
            # Not inside a longer token: "LN-12345" in "xLN-123456" is no id.
            re.compile(rf"(?<![A-Za-z0-9])(?:{slot.pattern})(?!\d)"),
            domain.answers.foreign.get(slot.name, STAND_IN),
        )
        for slot in domain.understanding.slots
        if slot.owned and slot.pattern
    )


def quote_data(
    text: object,
    *,
    own_ids: Iterable[str] = (),
    shapes: Sequence[IdShape] = (),
    limit: int = MAX_QUOTE,
) -> str:
    """`text` as a quotable fact: instruction-like sentences dropped, foreign identifiers hidden.

    `own_ids` are the ids the customer may see (their own, checked by intake);
    every other id of one of `shapes` becomes its stand-in words. Returns ""
    when nothing factual is left, so callers fall back to a structured field.
    """
    if not isinstance(text, str | int | float):
        return ""
    cleaned = _printable(str(text))
    kept = [s for s in _SENTENCE_END.split(cleaned) if s.strip() and not is_instruction(s)]
    quoted = _hide_identifiers(" ".join(kept), {norm_id(i) for i in own_ids}, shapes)
    quoted = _SPACE.sub(" ", quoted).strip()
    return quoted if len(quoted) <= limit else quoted[: limit - 1].rstrip() + "…"


def quote_document(doc: Any, *, own_ids: Iterable[str] = (), shapes: Sequence[IdShape] = ()) -> Any:
    """A tool result with its free-text fields quoted (see `quote_data`).

    Structured fields (ids, statuses, amounts) keep their values; prose
    fields and name-like keys (product names keyed to ids) are quoted, and
    an entry whose name is nothing but an instruction is dropped.
    """
    own = set(own_ids)
    if isinstance(doc, Mapping):
        quoted: dict[Any, Any] = {}
        for key, value in doc.items():
            name = key if not isinstance(key, str) or _FIELD.match(key) else quote_data(key)
            if name == "":
                continue
            if isinstance(value, str) and key in TEXT_FIELDS:
                quoted[name] = quote_data(value, own_ids=own, shapes=shapes)
            else:
                quoted[name] = quote_document(value, own_ids=own, shapes=shapes)
        return quoted
    if isinstance(doc, list | tuple):
        return [quote_document(item, own_ids=own, shapes=shapes) for item in doc]
    return doc


def quote_outcome(
    outcome: TaskOutcome, own_ids: Iterable[str], shapes: Sequence[IdShape] = ()
) -> TaskOutcome:
    """The outcome with its payload's free text quoted, for composing an answer."""
    quoted = quote_document(as_document(outcome.payload), own_ids=own_ids, shapes=shapes)
    return outcome.model_copy(update={"payload": quoted})


def own_ids(plan: Plan, outcomes: Mapping[str, TaskOutcome], domain: Domain) -> set[str]:
    """The owned ids this turn may name: those in the plan (intake checked each is the
    customer's) and those a succeeded result lists as the customer's own."""
    shapes = id_shapes(domain)
    found = ids_in((v for t in plan.tasks for v in t.args.values()), shapes)
    for outcome in outcomes.values():
        if outcome.status == "succeeded":
            found |= ids_in(domain.answers.own_ids(outcome), shapes)
    return found


def is_instruction(sentence: str) -> bool:
    """Whether a sentence of data reads like an instruction rather than a fact."""
    lowered = unicodedata.normalize("NFKC", sentence).lower()
    return any(p.search(lowered) for p in _patterns())


def ids_in(values: Iterable[object], shapes: Sequence[IdShape]) -> set[str]:
    """Ids of `shapes` named by `values` (task args, lists of them), normalised."""
    found: set[str] = set()
    for value in values:
        if isinstance(value, str):
            found.update(norm_id(m.group(0)) for s in shapes for m in s.pattern.finditer(value))
        elif isinstance(value, list | tuple | set):
            found |= ids_in(value, shapes)
    return found


def as_document(payload: Any) -> Any:
    """Tool output as data: JSON text (MCP tools) decoded, anything else as it is."""
    if isinstance(payload, str):
        try:
            return json.loads(payload)
        except ValueError:
            return payload
    return payload


def _hide_identifiers(text: str, own: set[str], shapes: Sequence[IdShape]) -> str:
    text = _URL.sub("[link]", text)
    text = EMAIL.sub("[e-mail address]", text)
    for shape in shapes:
        text = shape.pattern.sub(_keep_own(own, shape.stand_in), text)
    return text


def _keep_own(own: set[str], stand_in: str) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        return match.group(0) if norm_id(match.group(0)) in own else stand_in

    return replace


def norm_id(value: str) -> str:
    """One spelling per record id: case and punctuation do not make another id
    ("#ln12345" is "LN-12345")."""
    return _NOT_ID.sub("", value).upper()


def _printable(text: str) -> str:
    # Control and format characters (zero-width, bidi overrides) can hide
    # words from the patterns above or from the reader.
    return "".join(
        " " if unicodedata.category(c) in ("Cc", "Cf", "Cs") else c
        for c in unicodedata.normalize("NFKC", text)
    )


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in (*INJECTION_PATTERNS, *_DIRECTIVES))
