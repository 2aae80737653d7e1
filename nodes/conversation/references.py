"""References: "it", "that order", "the other one", "the keyboard", "这个订单".

When a request leaves empty a slot its intents need (`IntentSpec.requires`) or
may point at (`IntentSpec.refers`), the conversation's focus and the customer's
own records fill it: a word that singles out one of the records the domain
offers ("the keyboard", "the pending one"), the other record of the last two
("the other one"), or the one the conversation named last ("it", or nothing
at all where Chinese leaves the object out: "还是取消吧"). A required
slot nothing fills, or a reference several records fit, becomes a
clarification question. Only the customer's own records are ever candidates.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from nodes.context import SupportContext
from nodes.contracts import FocusEntity, Option, Question, Understanding
from nodes.conversation.questions import clarify_question
from nodes.conversation.words import OTHER, POSITION, REFERENCE, SOME_ZH, ordinal
from nodes.domain import Domain, ValueAsk
from nodes.quoting import norm_id

MIN_WORD = 3


@dataclass(frozen=True)
class Resolution:
    """What references resolved to: values to add to the request, or a question."""

    values: dict[str, str]
    question: Question | None = None


def needed_slots(domain: Domain, u: Understanding) -> tuple[list[str], set[str]]:
    """(slots the intents need or refer to and the request leaves empty, those required)."""
    needed: dict[str, None] = {}
    required: set[str] = set()
    for intent in u.intents:
        spec = domain.intent(intent)
        if spec is None:
            continue
        required |= {s for s in spec.requires if not u.slot(s)}
        needed.update(dict.fromkeys(s for s in (*spec.requires, *spec.refers) if not u.slot(s)))
    return list(needed), required


async def resolve(
    ctx: SupportContext, u: Understanding, focus: Sequence[FocusEntity], user_id: str, audit_id: str
) -> Resolution:
    """Fill the request's empty slots from the conversation, or ask which record."""
    slots, required = needed_slots(ctx.domain, u)
    values: dict[str, str] = {}
    lowered = u.text.lower()
    for slot in slots:
        entities = [e for e in focus if e.slot == slot]
        if slot not in required and not (entities or REFERENCE.search(lowered)):
            continue  # nothing to point at: a read without the slot covers every record
        options = await ctx.domain.records.options(ctx.pool, user_id, slot, u.intents, u.lang)
        picked, candidates = _pick(lowered, entities, options)
        if picked is None and not candidates and slot in required:
            picked = _elided(u, entities, options)
        if picked is not None:
            values[slot] = picked
        elif candidates or slot in required:
            offered = candidates or options
            if offered:
                lead = ctx.domain.answers.ask(slot, u.intents, u.lang)
                return Resolution(
                    values, clarify_question(lead, slot, offered, u.text, audit_id, u.lang)
                )
    if (wanted := value_wanted(ctx.domain, u)) is not None:
        options = await ctx.domain.records.options(
            ctx.pool, user_id, wanted.slot, u.intents, u.lang
        )
        if options or wanted.shape:
            lead = ctx.domain.answers.ask(wanted.slot, u.intents, u.lang)
            request = " ".join([u.text, *values.values()])
            asked = clarify_question(lead, wanted.slot, options, request, audit_id, u.lang)
            return Resolution(values, asked)
    return Resolution(values)


def value_wanted(domain: Domain, u: Understanding) -> ValueAsk | None:
    """The value a write of the request cannot go on without and the request does not give."""
    for intent in u.intents:
        spec = domain.intent(intent)
        if spec is None or any(u.slot(a.slot) for a in spec.asks):
            continue
        for ask in spec.asks:
            if ask.wanted(u.text):
                return ask
    return None


def value_answer(domain: Domain, question: Question, reply: str) -> str | None:
    """The value a reply gives to an open question asking for one ("12 Oak St, …")."""
    if question.kind != "clarify" or question.options or question.slot is None:
        return None
    specs = domain.understanding.intents
    shapes = (a for spec in specs for a in spec.asks if a.slot == question.slot)
    return next((v for a in shapes if (v := a.found_in(reply)) is not None), None)


def _elided(
    u: Understanding, focus: Sequence[FocusEntity], options: Sequence[Option]
) -> str | None:
    """The record a Chinese request leaves out ("还是取消吧": cancel it after all): one that
    names and counts no record means the one record the last turn was about, when that
    one fits the request (the confirmation then states it)."""
    if u.lang != "zh" or not focus or SOME_ZH.search(u.text):
        return None
    latest = [e.value for e in focus if e.turn == focus[0].turn]
    fitting = {norm_id(o.value) for o in options}
    return latest[0] if len(latest) == 1 and norm_id(latest[0]) in fitting else None


def _pick(
    lowered: str, focus: Sequence[FocusEntity], options: Sequence[Option]
) -> tuple[str | None, list[Option]]:
    """(the record the text means, else the records it could mean when ambiguous)."""
    by_words = described(lowered, options)
    if len(by_words) == 1:
        return by_words[0].value, []
    if len(by_words) > 1:
        return None, by_words
    if focus and OTHER.search(lowered):
        distinct = list(dict.fromkeys(e.value for e in focus))
        return (distinct[1], []) if len(distinct) == 2 else (None, _offered(distinct, options))
    latest = [e.value for e in focus if focus and e.turn == focus[0].turn]
    position = ordinal(lowered)
    # An earlier list only for a position that says what it counts ("the last one"),
    # never for a bare word like "last week".
    listed = latest if len(latest) > 1 or not POSITION.search(lowered) else _last_list(focus)
    if position is not None and len(listed) > 1 and -len(listed) <= position <= len(listed):
        # "the second one" of the records the last list showed, in the order shown.
        return listed[position - 1 if position > 0 else -1], []
    if not focus or not REFERENCE.search(lowered):
        return None, []
    if len(latest) == 1:
        return latest[0], []
    return None, _offered(latest, options)


def _last_list(focus: Sequence[FocusEntity]) -> list[str]:
    """The records of the latest turn that showed several, in the order shown."""
    for turn in dict.fromkeys(e.turn for e in focus):
        values = [e.value for e in focus if e.turn == turn]
        if len(values) > 1:
            return values
    return []


def pointed_at(lowered: str, focus: Sequence[FocusEntity]) -> str | None:
    """The one record a text that reads as nothing else points back at ("where is it?")."""
    points = REFERENCE.search(lowered) or OTHER.search(lowered) or ordinal(lowered) is not None
    if not focus or not points:
        return None
    picked, _ = _pick(lowered, focus, ())
    return picked


def described(lowered: str, options: Sequence[Option]) -> list[Option]:
    """The options a word of the text singles out ("the keyboard", "the pending one")."""
    return [o for o in options if any(_has_word(lowered, w) for w in o.words if len(w) >= MIN_WORD)]


def _has_word(lowered: str, word: str) -> bool:
    if not word.isascii():
        return word in lowered
    return re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", lowered) is not None


def _offered(values: Sequence[str], options: Sequence[Option]) -> list[Option]:
    """The options for `values`, in their order; a value the domain offers no option
    for is shown by its id."""
    known = {norm_id(o.value): o for o in options}
    return [known.get(norm_id(v)) or Option(value=v, label=v) for v in values]
