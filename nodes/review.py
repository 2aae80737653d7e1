"""The reviewer: every stated fact traceable, no unmasked PII, no internal
error text, policy kept, the customer's language spoken.

It sends the draft back with feedback naming the offending text, at most
`MAX_REVISIONS` times; after that the run escalates to a human.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from nodes.conditions import condition_skipped
from nodes.context import SupportContext
from nodes.contracts import ReviewVerdict
from nodes.conversation.focus import updated_focus
from nodes.conversation.questions import question_after
from nodes.conversation.record import record_metadata, turn_record
from nodes.domain import DomainAnswers
from nodes.language import CJK_RUN, turn_lang
from nodes.outcomes import declined_ids
from nodes.state import RunStatus, SupportState, plan_of
from skills.pii import EMAIL
from skills.registry import SkillRegistry

MAX_REVISIONS = 2
MIN_ERROR_CHARS = 12  # shorter error texts are words a sentence may contain by chance


def check(draft: str, state: SupportState, answers: DomainAnswers) -> ReviewVerdict:
    """Feedback on every fact, claim, unmasked e-mail or error text in `draft` the run does not back.

    Facts and claims are the domain's (`answers.facts`, `answers.claims`); the
    PII and error-text checks are the harness's own.
    """
    evidence = json.dumps(
        [
            state.get("outcomes"),
            state.get("text"),
            state.get("decisions"),
            state.get("refusal"),
            # A question's options are the customer's own records, read by the domain.
            state.get("asking"),
            state.get("understanding"),
        ],
        default=str,
        ensure_ascii=False,
    )
    numbers = evidence_numbers(evidence)
    feedback = [
        f"untraceable fact: {fact}"
        for fact in _facts(answers, draft)
        if not traceable(fact, evidence, numbers)
    ]
    feedback += [f"unmasked PII: {email}" for email in EMAIL.findall(draft) if "***@" not in email]
    succeeded = {
        o["skill"] for o in (state.get("outcomes") or {}).values() if o["status"] == "succeeded"
    }
    feedback += [f"internal error text: {e}" for e in _error_texts(state) if e in draft]
    for claim, skill in answers.claims.items():
        if claim in draft and skill not in succeeded and not state.get("refusal"):
            feedback.append(f"claim without a successful step: {claim}")
    feedback += language_feedback(draft, state)
    return ReviewVerdict(approved=not feedback, feedback=tuple(feedback))


def language_feedback(draft: str, state: SupportState) -> list[str]:
    """Feedback when `draft` is not in the turn's language (`nodes.language.turn_lang`).

    Chinese wording is a run of Chinese characters the run's data does not
    hold: a Chinese product name or policy passage quoted in an English answer
    is data, not the answer's language.
    """
    data = json.dumps(
        [_data_of_outcomes(state), state.get("decisions"), state.get("human_reply")],
        default=str,
        ensure_ascii=False,
    )
    wording = list(dict.fromkeys(r for r in CJK_RUN.findall(draft) if r not in data))
    if turn_lang(state) == "zh":
        return [] if wording else ["not in the customer's language: no Chinese sentence"]
    return [f"not in the customer's language: {run}" for run in wording]


def _data_of_outcomes(state: SupportState) -> list[Any]:
    """The outcomes as data a draft may quote. A goal task's payload holds, beside its
    calls' results, the planner's goal and the agent's closing text: model words, not
    data. Counted as data, a closing text saying "您的订单…" would make a Chinese
    answer saying the same words read as having no Chinese sentence of its own."""
    goals = {t.id for t in plan_of(state).tasks if t.goal is not None}
    data: list[Any] = []
    for task_id, outcome in (state.get("outcomes") or {}).items():
        payload = outcome.get("payload")
        if task_id in goals and isinstance(payload, dict):
            data.append([call.get("payload") for call in payload.get("calls") or []])
        else:
            data.append(outcome)
    return data


def _facts(answers: DomainAnswers, draft: str) -> list[str]:
    return [m.group(0) for m in answers.facts.finditer(draft)]


def _error_texts(state: SupportState) -> list[str]:
    # Compose never quotes these; a draft that does leaks internals (argument
    # names, validator messages, a tool's own words) to the customer.
    outcomes = (state.get("outcomes") or {}).values()
    texts = (str(o.get("error") or "").strip() for o in outcomes if o.get("status") == "failed")
    return [t for t in dict.fromkeys(texts) if len(t) >= MIN_ERROR_CHARS]


async def review(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    verdict = check(state.get("draft") or "", state, runtime.context.domain.answers)
    revisions = int(state.get("revisions") or 0) + (0 if verdict.approved else 1)
    return {
        "review": verdict.model_dump(mode="json"),
        "revisions": revisions,
        "trace": [f"review: {'approved' if verdict.approved else list(verdict.feedback)}"],
    }


def respond(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    """Publish the reviewed draft as the turn's answer (and its message) and final status."""
    status = final_status(state, runtime.context.registry)
    answer = state.get("draft") or ""
    # The id is the turn's: a respond that re-runs replaces its message, never repeats it.
    message = AIMessage(
        content=answer,
        id=f"ans-{state.get('audit_id') or ''}",
        response_metadata=record_metadata(turn_record(state, runtime.context.domain, status)),
    )
    question = question_after(state, answer)
    return {
        "answer": answer,
        "status": status,
        "messages": [message],
        "question": question,
        "focus": updated_focus(state, runtime.context.domain),
        "trace": [f"respond: {status}" + (f" asking ({question['kind']})" if question else "")],
    }


def final_status(state: SupportState, registry: SkillRegistry) -> RunStatus:
    """refused; needs_input when the turn ends with a question; failed when a requested change (or every step) did not happen; else completed.

    A change a human rejected is a decision, not a failure: the run completes
    and the answer says nothing was changed. So is a change the business
    declined (`nodes.outcomes`): the answer says why; `failed` is the system's.
    """
    if state.get("refusal"):
        return "refused"
    if state.get("asking") or state.get("confirmations"):
        return "needs_input"
    outcomes = list((state.get("outcomes") or {}).values())
    if not outcomes:
        return "completed"
    declined = declined_ids(plan_of(state).tasks, state.get("outcomes") or {}, registry)
    # A write whose condition did not hold was answered, not failed (`nodes.conditions`).
    writes = [
        o for o in outcomes if registry.is_side_effect(o["skill"]) and not condition_skipped(o)
    ]
    if any(o["status"] in ("failed", "skipped") and o["task_id"] not in declined for o in writes):
        return "failed"
    if not any(
        o["status"] in ("succeeded", "rejected") or o["task_id"] in declined for o in outcomes
    ):
        return "failed"
    return "completed"


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def evidence_numbers(evidence: str) -> frozenset[Decimal]:
    """Every number the evidence spells, as a value (3.50 and 3.5 are one)."""
    return frozenset(Decimal(n) for n in _NUMBER.findall(evidence))


def traceable(fact: str, evidence: str, numbers: frozenset[Decimal]) -> bool:
    """A fact is backed when the evidence holds it, or, for an amount ("$3.50"),
    the same number in any spelling (results store 3.5)."""
    bare = fact.lstrip("$€£¥ ").removesuffix("美元").strip()
    if bare in evidence:
        return True
    try:
        return _NUMBER.fullmatch(bare) is not None and Decimal(bare) in numbers
    except InvalidOperation:
        return False
