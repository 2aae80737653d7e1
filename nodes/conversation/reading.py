"""What a turn asks, read in its conversation: the answer to the last question, and
references to what was named before, resolved before anything is planned."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from checkpoints.audit import CUSTOMER_CONFIRMED, AuditEvent, has_confirmation, record_event
from nodes.context import ADHOC, SupportContext, run_position
from nodes.contracts import Question, Understanding
from nodes.conversation.corrections import carried_over, named_first
from nodes.conversation.focus import focus_of
from nodes.conversation.followup import Reply, answer_to
from nodes.conversation.questions import intent_question, open_question
from nodes.conversation.references import pointed_at, resolve, value_answer
from nodes.domain import OUT_OF_SCOPE
from nodes.intake.rules import understand
from nodes.state import SupportState

# What a reply to a confirmation question did to the calls it stated, as audited.
_CALL_STATUS = {
    "declined": "customer_declined",
    "new_request": "confirmation_withdrawn",
    "amended": "confirmation_withdrawn",
}


@dataclass(frozen=True)
class TurnReading:
    """The rules reading of what the turn asks, with the conversation taken into account."""

    rules: Understanding | None
    """None when the reply settled the last question and nothing is to be planned."""
    asking: Question | None = None
    notes: list[str] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)


async def read_turn(ctx: SupportContext, state: SupportState, user_id: str) -> TurnReading:
    """Read the turn's text against the open question and the focus."""
    text = state.get("text") or ""
    notes = [n for n in [state.get("followup")] if n]
    trace: list[str] = []
    question = open_question(state)
    if question is not None:
        if (value := value_answer(ctx.domain, question, text)) is not None:
            reply = Reply(f"{question.request}: {value}", outcome="picked")
        else:
            reading = _read(ctx, text)
            asked = _read(ctx, question.request)
            reply = answer_to(question, text, reading, asked, _without_ids(ctx, text, reading))
        await _audit_reply(ctx, state, question, reply)
        trace.append(f"conversation: {question.kind} question answered: {reply.outcome}")
        notes += [reply.note] if reply.note else []
        if reply.settled:
            return TurnReading(None, reply.ask_again, notes, trace)
        text = reply.text
    rules = _read(ctx, text)
    if question is not None and reply.intent:
        # The customer chose what to do: the request is read as that, and nothing else.
        rules = rules.model_copy(update={"intents": (reply.intent,), "uncertain": ()})
    elif question is not None and reply.outcome == "confirmed" and question.intents:
        # A yes goes on with what it confirmed (and any request it adds), however its
        # words read again; the calls must still match what was stated to run.
        confirmed = (*question.intents, *rules.intents)
        kept = tuple(i for i in dict.fromkeys(confirmed) if i != OUT_OF_SCOPE)
        rules = rules.model_copy(update={"intents": kept, "uncertain": ()})
    elif question is not None and reply.outcome == "amended":
        # The change's words ("only the hose") ask nothing of their own: the request stays.
        rules = rules.model_copy(update={"intents": _read(ctx, question.request).intents})
    focus = named_first(ctx, rules, focus_of(state), int(state.get("turn") or 0))
    if (
        question is None
        and (carried := carried_over(state, rules, _without_ids(ctx, text, rules))) is not None
    ):
        rules = carried
        trace.append(f"conversation: a correction; the last request goes on {list(rules.intents)}")
    value = pointed_at(text.lower(), focus) if rules.intents == (OUT_OF_SCOPE,) else None
    # "where is it?" reads as nothing alone; with the record it points at, it may. A text
    # that names the record itself already said all it says ("the lamp in #W1, swap it").
    if value is not None and value.lstrip("#").lower() not in text.lower():
        pointed = _read(ctx, f"{text} {value}")
        if pointed.intents != (OUT_OF_SCOPE,):
            rules = pointed
            trace.append(f"conversation: read with the record in focus {value}")
    audit_id = state.get("audit_id") or ""
    if rules.intents == (OUT_OF_SCOPE,) and rules.uncertain:
        trace.append(f"conversation: unsure of {list(rules.uncertain)}; asking")
        return TurnReading(rules, intent_question(ctx.domain, rules, audit_id), notes, trace)
    resolution = await resolve(ctx, rules, focus, user_id, audit_id)
    if resolution.values:
        added = " ".join(resolution.values.values())
        rules = _read(ctx, f"{text} {added}")
        trace.append(f"conversation: references resolved to {sorted(resolution.values.values())}")
    return TurnReading(rules, resolution.question, notes, trace)


def _without_ids(ctx: SupportContext, text: str, reading: Understanding) -> Understanding | None:
    """The text read with the owned ids it names taken out, when it names any."""
    ids = [v for s in ctx.domain.understanding.slots if s.owned for v in reading.slot(s.name)]
    if not ids:
        return None
    for value in ids:
        text = re.sub(re.escape(value.lstrip("#")), " ", text, flags=re.IGNORECASE)
    return _read(ctx, text.replace("#", " "))


def _read(ctx: SupportContext, text: str) -> Understanding:
    return understand(text, ctx.domain.understanding, ctx.lexicon)


async def _audit_reply(
    ctx: SupportContext, state: SupportState, question: Question, reply: Reply
) -> None:
    """Audit what the customer's reply did to the calls a confirmation stated.

    The `customer_confirmed` row is the proof the confirmation link of the skill
    runtime looks for; it is written once even when the node re-runs."""
    status = CUSTOMER_CONFIRMED if reply.outcome == "confirmed" else _CALL_STATUS.get(reply.outcome)
    if question.kind != "confirm" or status is None:
        return
    audit_id = state.get("audit_id") or ADHOC
    position = run_position()
    thread_id = position.thread_id or ADHOC
    async with ctx.pool.connection() as conn, conn.transaction():
        for call in question.calls:
            if await has_confirmation(conn, audit_id, call.skill, call.args_hash, status=status):
                continue
            event = AuditEvent(
                audit_id=audit_id,
                status=status,
                thread_id=thread_id,
                step=position.step,
                node="intake",
                skill=call.skill,
                args_hash=call.args_hash,
                detail={"asked_in": question.audit_id},
            )
            await record_event(conn, event)
