"""Cross-check a model's intake reading against the request and the rules tier.

A schema-valid reading is still untrusted. Two kinds of checks:

- hard: intents outside the vocabulary, a set of write intents that differs
  from the rules tier's (a model may neither add nor drop a change the
  customer asked for), order ids or e-mails the rules tier did not read in
  the customer's text reject the whole reading (the ladder then tries the
  next tier) — a model that invents a write or an identifier is not trusted
  for anything else in that answer;
- soft: descriptive slots (items, address, reason, payment) not grounded in
  the text are replaced by the rules tier's value; for the slots that shape a
  write (address, reason, payment) the rules tier's value wins whenever it
  has one, so a model only fills gaps.

Reads may differ: a model may tell a tracking question from a status one.
Then the merge keeps the rules tier as a floor: its safety-critical intents
and its identifiers are never dropped, and its injection flag is never cleared.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from nodes.contracts import INTENTS, Slots, Tier, Understanding
from nodes.errors import ModelOutputInvalid
from nodes.intake.rules import EMAIL, PAYMENT_ID
from nodes.intake.vocabulary import CANCEL_REASONS, PAYMENT_WORDS
from nodes.models.schema import IntakeReading, ReadingSlots

NODE = "intake"
# Intents a model may add but can never remove: they lead to a refusal or a human.
SAFETY_INTENTS: tuple[str, ...] = ("bulk_modify", "human_handoff")
# Intents whose plan changes data or sends something (their templates hold a
# side-effect step, or would once the slots they need are given). A model
# reading must name exactly the ones the rules tier read.
WRITE_INTENTS: frozenset[str] = frozenset(
    {"cancel_order", "modify_order", "return_items", "exchange_items", "update_account", "notify"}
)
ORDER_ID_SHAPE = re.compile(r"#?([Ww]\d{7})")


def ground_reading(reading: IntakeReading, rules: Understanding, tier: Tier) -> Understanding:
    """The merged understanding, or `ModelOutputInvalid` if the reading is not grounded."""
    intents = _checked_intents(reading.intents)
    _check_writes(intents, rules.intents)
    order_ids = _checked_order_ids(reading.slots.order_ids, rules)
    emails = _checked_emails(reading.slots.emails, rules)
    real_rules = tuple(i for i in rules.intents if i != "out_of_scope")
    if intents == ("out_of_scope",) and real_rules:
        # A model that sees nothing where the rules saw a request is weaker
        # than the rules; keep the rules' reading as it is.
        return rules
    merged = _merge_intents(intents, rules.intents)
    slots = Slots(
        order_ids=_union(rules.slots.order_ids, order_ids),
        emails=_union(rules.slots.emails, emails),
        item_names=_union(rules.slots.item_names, _grounded_items(reading.slots, rules.text)),
        address=_grounded_address(reading.slots.address, rules),
        reason=rules.slots.reason or _known_reason(reading.slots.reason),
        payment_method=_grounded_payment(reading.slots.payment_method, rules),
    )
    return Understanding.model_validate(
        {
            **rules.model_dump(),
            "intents": merged,
            "slots": slots.model_dump(),
            "injection": rules.injection or reading.injection,
            "tier": tier,
        }
    )


def _checked_intents(intents: Iterable[str]) -> tuple[str, ...]:
    unique = tuple(dict.fromkeys(intents))
    unknown = [i for i in unique if i not in INTENTS]
    if unknown:
        raise ModelOutputInvalid(NODE, f"intent(s) outside the vocabulary: {unknown[:3]}")
    return unique


def _check_writes(model: tuple[str, ...], rules: tuple[str, ...]) -> None:
    # Which changes run is the customer's words read by rules, never a model's
    # opinion: a dropped cancel is as wrong as an invented one.
    added = sorted(WRITE_INTENTS.intersection(model) - set(rules))
    dropped = sorted(WRITE_INTENTS.intersection(rules) - set(model))
    if added:
        raise ModelOutputInvalid(NODE, f"write intent(s) the rules tier did not read: {added}")
    if dropped:
        raise ModelOutputInvalid(NODE, f"drops write intent(s) the rules tier read: {dropped}")


def _merge_intents(model: tuple[str, ...], rules: tuple[str, ...]) -> tuple[str, ...]:
    chosen = set(model) | {i for i in rules if i in SAFETY_INTENTS}
    if len(chosen) > 1:
        chosen.discard("out_of_scope")
    # Vocabulary order, so the plan does not depend on how a model ordered its list.
    return tuple(i for i in INTENTS if i in chosen)


def _checked_order_ids(ids: Iterable[str], rules: Understanding) -> tuple[str, ...]:
    out = []
    for raw in ids:
        shape = ORDER_ID_SHAPE.fullmatch(raw.strip())
        if shape is None:
            raise ModelOutputInvalid(NODE, f"order id {raw[:40]!r} is not an order id")
        bare = shape.group(1)
        if not re.search(rf"(?<![A-Za-z0-9]){re.escape(bare)}(?!\d)", rules.text, re.IGNORECASE):
            raise ModelOutputInvalid(NODE, f"order id {bare} does not appear in the request")
        # Order ids are what writes act on: only those the rules tier read.
        if "#" + bare.upper() not in rules.slots.order_ids:
            raise ModelOutputInvalid(NODE, f"order id {bare} is not one the rules tier read")
        out.append("#" + bare.upper())
    return tuple(out)


def _checked_emails(emails: Iterable[str], rules: Understanding) -> tuple[str, ...]:
    # A recipient is a write target: exactly an address the rules tier read
    # (a substring of one, "nn@example.com" inside "ann@example.com", is not).
    known = {e.casefold() for e in rules.slots.emails}
    out = []
    for raw in emails:
        email = raw.strip()
        if EMAIL.fullmatch(email) is None or email.casefold() not in known:
            raise ModelOutputInvalid(NODE, "an e-mail address does not appear in the request")
        out.append(email)
    return tuple(out)


def _grounded_items(slots: ReadingSlots, text: str) -> tuple[str, ...]:
    lowered = text.lower()
    return tuple(n.strip() for n in slots.item_names if n.strip() and n.strip().lower() in lowered)


def _grounded_address(address: str | None, rules: Understanding) -> str | None:
    if rules.slots.address:
        return rules.slots.address
    if address and " ".join(address.split()).lower() in rules.text.lower():
        return " ".join(address.split())
    return None


def _known_reason(reason: str | None) -> str | None:
    return reason if reason in CANCEL_REASONS else None


def _grounded_payment(payment: str | None, rules: Understanding) -> str | None:
    # A payment id must be written in the text; a kind ("gift_card") must be named in it.
    if rules.slots.payment_method:
        return rules.slots.payment_method
    lowered = rules.text.lower()
    if payment is not None and payment in PAYMENT_WORDS and payment.replace("_", " ") in lowered:
        return payment
    if payment and PAYMENT_ID.fullmatch(payment) and payment in rules.text:
        return payment
    return None


def _union(first: Iterable[str], second: Iterable[str]) -> tuple[str, ...]:
    # Case-insensitive, first spelling wins: the rules' canonical names come first.
    seen: dict[str, str] = {}
    for value in (*first, *second):
        seen.setdefault(value.casefold(), value)
    return tuple(seen.values())
