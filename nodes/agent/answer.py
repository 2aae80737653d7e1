"""What an answer may say of a role agent's findings.

The model's closing text is untrusted model output. It is stated only when
every fact the domain checks in answers (ids, amounts: `DomainAnswers.facts`)
is one the agent's successful tool results hold; it is quoted as data like
any tool text (instructions dropped, foreign ids hidden). Otherwise the
answer states the results themselves, in the domain's own sentences.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from nodes.agent.findings import AgentCall, AgentFindings
from nodes.contracts import Task, TaskOutcome
from nodes.domain import Domain
from nodes.language import Bilingual, Lang
from nodes.models.budget_notice import BUDGET_SPENT, budget_spent_text
from nodes.quoting import IdShape, ids_in, quote_data, quote_document
from nodes.review import evidence_numbers, traceable

NOT_FOUND = Bilingual("I could not find that out.", "抱歉，我没能查到这些信息。")
REJECTED = Bilingual(
    "A reviewer rejected the change; nothing was changed.",
    "审核人员否决了这项更改，没有做任何更改。",
)
STOPPED = Bilingual(
    "I stopped before checking everything; this is what I found so far.",
    "我没有查完所有信息；以下是目前查到的内容。",
)


def agent_sentences(
    outcome: TaskOutcome,
    domain: Domain,
    lang: Lang,
    own: set[str],
    shapes: Sequence[IdShape],
    *,
    beside: bool = False,
) -> list[str]:
    """The answer's sentences for one goal task's outcome. `beside`: the goal ran beside
    planned steps that answer for themselves, so only its checked closing text is told."""
    if outcome.error_code == BUDGET_SPENT:
        return [budget_spent_text(lang)]
    if outcome.status == "rejected":
        return [REJECTED.say(lang)]
    if beside:
        return _checked_text(outcome, domain, own, shapes)
    if outcome.status != "succeeded" and outcome.status != "failed":
        return []  # waiting for the customer or an operator: the question says so
    if not isinstance(outcome.payload, dict):
        return [NOT_FOUND.say(lang)]
    findings = AgentFindings.model_validate(outcome.payload)
    known = own | agent_own_ids(findings, domain, shapes)
    lead = [STOPPED.say(lang)] if outcome.partial and findings.succeeded else []
    if outcome.status == "succeeded" and (told := _closing_text(findings, domain, known, shapes)):
        return [*lead, told]
    facts = [s for c in findings.succeeded for s in _described(c, domain, lang, known, shapes)]
    return [*lead, *facts] if facts else [NOT_FOUND.say(lang)]


def _checked_text(
    outcome: TaskOutcome, domain: Domain, own: set[str], shapes: Sequence[IdShape]
) -> list[str]:
    if outcome.status != "succeeded" or not isinstance(outcome.payload, dict):
        return []
    findings = AgentFindings.model_validate(outcome.payload)
    known = own | agent_own_ids(findings, domain, shapes)
    told = _closing_text(findings, domain, known, shapes)
    return [told] if told else []


def _closing_text(
    findings: AgentFindings, domain: Domain, known: set[str], shapes: Sequence[IdShape]
) -> str:
    """The model's closing text quoted as data, when it passes the fact check; else ""."""
    if not checked(findings, domain):
        return ""
    return quote_data(findings.answer, own_ids=known, shapes=shapes, limit=600)


def checked(findings: AgentFindings, domain: Domain) -> bool:
    """Whether the closing text states only facts the successful results hold."""
    if not findings.answer.strip():
        return False
    evidence = json.dumps([c.model_dump(mode="json") for c in findings.succeeded], default=str)
    numbers = evidence_numbers(evidence)
    facts = (m.group(0) for m in domain.answers.facts.finditer(findings.answer))
    return all(traceable(f, evidence, numbers) for f in facts)


def agent_own_ids(findings: AgentFindings, domain: Domain, shapes: Sequence[IdShape]) -> set[str]:
    """Owned ids the agent's successful calls showed are the customer's: the runtime's
    ownership checks let them through, or a result lists them as the customer's."""
    found = ids_in(_values(c.args.values() for c in findings.succeeded), shapes)
    for call in findings.succeeded:
        found |= ids_in(domain.answers.own_ids(_as_outcome(call)), shapes)
    return found


def _described(
    call: AgentCall, domain: Domain, lang: Lang, own: set[str], shapes: Sequence[IdShape]
) -> list[str]:
    step = Task(id="agent", role="agent", skill=call.skill, args=call.args)
    quoted = quote_document(call.payload, own_ids=own, shapes=shapes)
    return domain.answers.describe(step, _as_outcome(call, quoted), lang)


def _as_outcome(call: AgentCall, payload: object = None) -> TaskOutcome:
    shown = call.payload if payload is None else payload
    return TaskOutcome(
        task_id="agent", skill=call.skill, role="agent", status="succeeded", payload=shown
    )


def _values(groups: Iterable[Iterable[object]]) -> list[object]:
    return [v for group in groups for v in group]
