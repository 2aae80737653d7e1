"""The questions a turn ends with: which record the customer means (clarify), and
whether to make exactly this change (confirm)."""

from __future__ import annotations

from collections.abc import Sequence

from nodes.contracts import Call, ConfirmationRequest, Option, Question, Understanding
from nodes.domain import Domain
from nodes.language import Lang, say
from nodes.state import QuestionData, SupportState, stored

MAX_ASKED = 2
"""An answer that fits no option asks again once; after that the question is dropped."""


def clarify_question(
    lead: str, slot: str, options: Sequence[Option], request: str, audit_id: str, lang: Lang
) -> Question:
    """Ask which of `options` the customer means, to go on with `request`; with no
    options, `lead` asks for a value of `slot` in the customer's own words."""
    listed = "; ".join(f"{n}) {o.label}" for n, o in enumerate(options, 1))
    hint = say(
        lang,
        "Reply with the number, the id, or a word that tells them apart.",
        "请回复序号、编号，或能区分它们的词。",
    )
    listing = f"{lead} {listed}. {hint}" if lang == "en" else f"{lead}{listed}。{hint}"
    return Question(
        kind="clarify",
        text=listing if options else lead,
        request=request,
        slot=slot,
        options=tuple(options),
        audit_id=audit_id,
    )


INTENT = "intent"
"""The `Question.slot` of a question asking what the customer wants done."""


def intent_question(domain: Domain, reading: Understanding, audit_id: str) -> Question:
    """Ask whether the customer wants the write the reading leaned to but did not read:
    an unsure reading is a question, never a guess."""
    lang = reading.lang
    options = [
        Option(value=spec.name, label=spec.offer.say(lang) if spec.offer else spec.description)
        for name in reading.uncertain
        if (spec := domain.intent(name)) is not None
    ]
    lead = say(
        lang,
        "I am not sure what you would like me to do. Do you want me to:",
        "我不太确定您想让我做什么。您是想让我：",
    )
    return clarify_question(lead, INTENT, options, reading.text, audit_id, lang)


def confirmation_question(clauses: Sequence[str], lang: Lang) -> str:
    """One question stating every change the turn waits to make, asking for a yes."""
    joined = say(lang, "; and I will ", "；并且").join(clauses)
    return say(
        lang,
        f'To confirm: I will {joined}. Shall I go ahead? Reply "yes" to confirm, or tell me'
        " what to change.",
        f"请确认：我将{joined}。确认要继续吗？请回复“是”确认，或告诉我需要修改什么。",
    )


def confirm_question(state: SupportState, draft: str) -> Question | None:
    """The confirmation the turn ends with when a call waits for the customer's yes."""
    waiting = [
        ConfirmationRequest.model_validate(c) for c in (state.get("confirmations") or {}).values()
    ]
    raw = state.get("understanding")
    if not waiting or not raw:
        return None
    understanding = Understanding.model_validate(raw)
    return Question(
        kind="confirm",
        text=draft,
        request=understanding.text,
        calls=tuple(Call(skill=c.skill, args_hash=c.args_hash) for c in waiting),
        audit_id=state.get("audit_id") or "",
        intents=understanding.intents,
    )


def question_after(state: SupportState, draft: str) -> QuestionData | None:
    """What the conversation holds open once this turn ends (None: nothing asked)."""
    asking = state.get("asking")
    if asking:
        return asking
    asked = confirm_question(state, draft)
    return stored(asked, QuestionData) if asked else None


def open_question(state: SupportState) -> Question | None:
    """The question the previous turn asked, if the conversation holds one."""
    raw = state.get("question")
    return Question.model_validate(raw) if raw else None
