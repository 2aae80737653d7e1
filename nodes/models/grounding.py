"""Cross-check a model's intake reading against the request and the rules tier.

Generic over the domain's vocabulary (`IntentSpec`, `SlotSpec`). A
schema-valid reading is still untrusted. Two kinds of checks:

- hard: intents outside the vocabulary, a set of write intents that differs
  from the rules tier's (a model may neither add nor drop a change the
  customer asked for), identifier values the rules tier did not read in the
  customer's text reject the whole reading (the ladder then tries the next
  tier) — a model that invents a write or an identifier is not trusted for
  anything else in that answer;
- soft: text and choice slots not grounded in the text (or outside their
  choices) are replaced by the rules tier's value; for the slots that shape a
  write the rules tier's value wins whenever it has one, so a model only
  fills gaps.

Reads may differ only within what the rules tier weighed, so a weak model
cannot make the reading worse:
- a model may add a read the rules gave some weight without taking it
  (`Understanding.plausible`: a tracking question read as a status one, when
  both were in view), never one the rules saw no sign of;
- it never drops a read the rules took (nor their safety intents or
  identifiers), and its "out of scope" for a request the rules read changes
  nothing;
- it may raise the injection flag, never clear it: a false flag costs only
  the turn's memory and summary, a missed one would let injected text into
  them;
- a request the rules read as out of scope stays so unless it names something
  the rules read (an order, an item, an address): then the model may say what
  it asks of them. "Write me a poem" stays out of scope whatever a model says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from nodes.contracts import Tier, Understanding
from nodes.domain import OUT_OF_SCOPE, DomainUnderstanding, SlotSpec
from nodes.errors import ModelOutputInvalid
from nodes.models.schema import IntakeReading

NODE = "intake"


def ground_reading(
    reading: IntakeReading, rules: Understanding, tier: Tier, domain: DomainUnderstanding
) -> Understanding:
    """The merged understanding, or `ModelOutputInvalid` if the reading is not grounded."""
    vocabulary = tuple(i.name for i in domain.intents)
    intents = _checked_intents(reading.intents, vocabulary)
    _check_writes(intents, rules.intents, {i.name for i in domain.intents if i.writes})
    given = reading.slots.values()
    for spec in domain.slots:
        if spec.kind == "identifier":
            _check_identifiers(spec, given.get(spec.name, ()), rules)
    if intents == (OUT_OF_SCOPE,) and any(i != OUT_OF_SCOPE for i in rules.intents):
        # A model that sees nothing where the rules saw a request is weaker
        # than the rules; keep the rules' reading as it is.
        return rules
    slots = {s.name: _grounded(s, given.get(s.name, ()), rules) for s in domain.slots}
    return Understanding.model_validate(
        {
            **rules.model_dump(),
            "intents": _merge_intents(intents, rules, vocabulary),
            "slots": {name: values for name, values in slots.items() if values},
            "injection": rules.injection or reading.injection,
            "tier": tier,
        }
    )


def _checked_intents(intents: Iterable[str], vocabulary: tuple[str, ...]) -> tuple[str, ...]:
    unique = tuple(dict.fromkeys(intents))
    unknown = [i for i in unique if i not in vocabulary]
    if unknown:
        raise ModelOutputInvalid(NODE, f"intent(s) outside the vocabulary: {unknown[:3]}")
    return unique


def _check_writes(model: tuple[str, ...], rules: tuple[str, ...], writes: set[str]) -> None:
    # Which changes run is the customer's words read by rules, never a model's
    # opinion: a dropped change is as wrong as an invented one.
    added = sorted(writes.intersection(model) - set(rules))
    dropped = sorted(writes.intersection(rules) - set(model))
    if added:
        raise ModelOutputInvalid(NODE, f"write intent(s) the rules tier did not read: {added}")
    if dropped:
        raise ModelOutputInvalid(NODE, f"drops write intent(s) the rules tier read: {dropped}")


def _merge_intents(
    model: tuple[str, ...], rules: Understanding, vocabulary: tuple[str, ...]
) -> tuple[str, ...]:
    # Writes were checked above to be the rules' own. The rules' reads stay; a model
    # adds only reads the rules weighed, or says what a request the rules could not
    # read asks of the records it names.
    weighed = set(model) & set(rules.plausible)
    if rules.intents == (OUT_OF_SCOPE,):
        chosen = set(model) if rules.slots else weighed | {OUT_OF_SCOPE}
    else:
        chosen = set(rules.intents) | weighed
    if len(chosen) > 1:
        chosen.discard(OUT_OF_SCOPE)
    # Vocabulary order, so the plan does not depend on how a model ordered its list.
    return tuple(i for i in vocabulary if i in chosen)


def _check_identifiers(spec: SlotSpec, values: Iterable[str], rules: Understanding) -> None:
    # Identifiers are what writes act on (and a recipient is a write target):
    # only those the rules tier read. A substring of one ("nn@example.com"
    # inside "ann@example.com") is another identifier. Values are never
    # quoted back: they may be personal data.
    shape = spec.compiled()
    known = {_key(shape, v) for v in rules.slot(spec.name)}
    for raw in values:
        if shape is not None and shape.fullmatch(raw.strip()) is None:
            raise ModelOutputInvalid(NODE, f"{spec.name}: a value of the wrong shape")
        if _key(shape, raw) not in known:
            raise ModelOutputInvalid(NODE, f"{spec.name}: a value the rules tier did not read")


def _key(shape: re.Pattern[str] | None, value: str) -> str:
    found = shape.fullmatch(value.strip()) if shape is not None else None
    if found is None:
        return value.strip().casefold()
    return (found.group(1) if shape is not None and shape.groups else found.group(0)).casefold()


def _grounded(spec: SlotSpec, values: tuple[str, ...], rules: Understanding) -> tuple[str, ...]:
    floor = rules.slot(spec.name)
    if spec.kind == "identifier":
        return floor  # the model may only repeat these (checked above)
    if spec.shapes_write and floor:
        return floor
    cleaned = (" ".join(v.split()) for v in values)
    accepted = tuple(v for v in cleaned if _acceptable(spec, v, rules.text))
    if spec.many:
        return _union(floor, accepted)
    return accepted[:1] or floor


def _acceptable(spec: SlotSpec, value: str, text: str) -> bool:
    if spec.kind == "choice":
        return value in spec.choices
    shape = spec.compiled()
    if not value or (shape is not None and shape.fullmatch(value) is None):
        return False
    return _folded(value) in _folded(text)


def _folded(text: str) -> str:
    # "next_day" is named by "next day": compare as words, case-insensitively.
    return " ".join(text.replace("_", " ").casefold().split())


def _union(first: Iterable[str], second: Iterable[str]) -> tuple[str, ...]:
    # Case-insensitive, first spelling wins: the rules' canonical names come first.
    seen: dict[str, str] = {}
    for value in (*first, *second):
        seen.setdefault(value.casefold(), value)
    return tuple(seen.values())
