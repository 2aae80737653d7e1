"""Reading a turn against the question the last turn asked.

- confirm: only an explicit yes ("yes", "go ahead", "是的", or a yes leading a
  restatement of the same request) continues the request, with exactly the
  calls the question stated; a no changes nothing; a new request withdraws
  the question and is handled as asked, and so does a correction naming other
  records ("sorry, I meant #W2": the same request on them), and a yes that
  changes what was stated ("yes, but only the lamp": the request with the change,
  asked anew); a yes adding a request ("yes. also, where is #W2?") confirms the
  stated calls and goes on with both; anything else asks again, once.
- clarify: an id, a position ("the second one", "第二个"), a word that singles
  out one option ("the pending one"), or a yes when only one was offered picks
  the record and the original request goes on with it; a new request replaces
  it; anything else asks again, once.

The outcome is the text the turn goes on to read (the original request with
the record filled in, for a clarification) and what to tell the customer.
"""

from __future__ import annotations

from dataclasses import dataclass

from nodes.contracts import Call, Question, Understanding
from nodes.conversation.corrections import retargeted
from nodes.conversation.questions import INTENT, MAX_ASKED
from nodes.conversation.references import described
from nodes.conversation.words import ALSO, AMEND, NO, YES, YES_LEAD, ordinal
from nodes.domain import OUT_OF_SCOPE
from nodes.language import Lang, say


@dataclass(frozen=True)
class Reply:
    """How the turn's text answers the open question."""

    text: str
    """What the turn reads as its request."""
    confirmed: tuple[Call, ...] = ()
    note: str | None = None
    """A sentence for the answer (nothing was changed, the earlier step was dropped)."""
    ask_again: Question | None = None
    settled: bool = False
    """The reply needs nothing planned (a no, or the question asked again)."""
    outcome: str = "new_request"
    """What the reply was: confirmed, declined, picked, asked_again, new_request, amended
    (the confirmed request with a change: read with the question's intents)."""
    intent: str | None = None
    """The intent the customer picked, when the question asked what to do."""


def answer_to(
    question: Question,
    text: str,
    reading: Understanding,
    asked: Understanding,
    bare: Understanding | None = None,
) -> Reply:
    """How `text` (read as `reading`) answers `question`, whose request reads as `asked`;
    `bare` is the text read without the record ids it names, when it names any."""
    lowered = text.lower().strip()
    lang = reading.lang
    same = _restates(reading, asked)
    if question.kind == "clarify" and bare is not None and _asks_else(bare, asked):
        # "what's the status of #W…?" names an option but asks something else.
        return Reply(text, outcome="new_request")
    if question.kind == "confirm":
        # A yes leading more words confirms only when those words restate the request
        # ("yes, cancel it"); "ok, but what is ..." is not a yes.
        restated = same and _is_request(reading)
        if YES.match(lowered) or (YES_LEAD.match(lowered) and restated):
            return Reply(question.request, confirmed=question.calls, outcome="confirmed")
        if (lead := YES_LEAD.match(lowered)) and AMEND.search(rest := text.strip()[lead.end() :]):
            # "yes, but only the lamp": not a yes to what was stated; the same request
            # with the change, to be stated and confirmed anew.
            return Reply(f"{question.request} {rest}", outcome="amended")
        if lead and ALSO.search(rest) and _is_request(reading):
            # "yes please. also, where is #W2?": a yes to what was stated, and one more
            # request; only the stated calls count as confirmed, anything new is asked.
            return Reply(
                f"{question.request} {rest}", confirmed=question.calls, outcome="confirmed"
            )
    elif (picked := _picked(question, lowered, reading)) is not None:
        if question.slot == INTENT:
            return Reply(question.request, outcome="picked", intent=picked)
        return Reply(f"{question.request} {picked}", outcome="picked")
    if question.kind == "confirm" and (fixed := retargeted(question.request, asked, reading, bare)):
        # "sorry, I meant #W2": the stated change is withdrawn, the request asked anew.
        return Reply(fixed, note=_not_done(lang), outcome="new_request")
    if NO.match(lowered) and same:
        return Reply(text, note=_declined(lang), settled=True, outcome="declined")
    if _is_request(reading) and not same:
        note = _not_done(lang) if question.kind == "confirm" else None
        return Reply(text, note=note, outcome="new_request")
    return _again(question, text, lang)


def _picked(question: Question, lowered: str, reading: Understanding) -> str | None:
    """The record the reply chooses: an id it names, a position, a describing word."""
    options = list(question.options)
    if question.slot and reading.slot(question.slot):
        return reading.slot(question.slot)[0]  # any id: intake still checks it is theirs
    position = ordinal(lowered)
    if position is not None and options and -1 <= position <= len(options) and position:
        return options[position - 1 if position > 0 else -1].value
    by_words = described(lowered, options)
    if len(by_words) == 1:
        return by_words[0].value
    if len(options) == 1 and YES.match(lowered):
        return options[0].value
    return None


def _restates(reading: Understanding, asked: Understanding) -> bool:
    """Whether the reply asks nothing the question's request did not ("yes, cancel it",
    "no, don't"): no other intent, no other slot value."""
    if not _is_request(reading):
        return True
    if not set(reading.intents) <= set(asked.intents):
        return False
    return all(set(values) <= set(asked.slot(name)) for name, values in reading.slots.items())


def _asks_else(bare: Understanding, asked: Understanding) -> bool:
    """Whether the words around the ids ask for something the question's request did not."""
    return _is_request(bare) and not set(bare.intents) <= set(asked.intents)


def _is_request(reading: Understanding) -> bool:
    return reading.intents != (OUT_OF_SCOPE,)


def _again(question: Question, text: str, lang: Lang) -> Reply:
    if question.asked >= MAX_ASKED:
        return Reply(text, note=_declined(lang), settled=True, outcome="declined")
    again = question.model_copy(update={"asked": question.asked + 1})
    note = say(lang, "Sorry, I did not catch that.", "抱歉，我没有理解您的回答。")
    return Reply(text, note=note, ask_again=again, settled=True, outcome="asked_again")


def _declined(lang: Lang) -> str:
    return say(lang, "Okay, I have not changed anything.", "好的，我没有做任何更改。")


def _not_done(lang: Lang) -> str:
    return say(
        lang,
        "I have not made the change I asked you to confirm.",
        "之前请您确认的更改我没有执行。",
    )
