"""What a customer is told about a step that did not succeed.

Error text from skills, bindings and exceptions is written for operators and
logs: it names arguments, validators and services, and a tool's message is
untrusted data. The customer reads fixed wording chosen by the outcome's
error code instead; the raw text stays in the audit trail and the run's state.
"""

from __future__ import annotations

from collections.abc import Mapping

from nodes.contracts import Task, TaskOutcome
from nodes.domain import Domain

_UNAVAILABLE = "a service it depends on is not answering right now; please try again in a while"
_DETAILS = (
    "some details it needs are missing or not in a form I can use; please check and ask again"
)
_NOT_FOUND = "I could not find that on your account"
_NOT_ALLOWED = "that is not something I can do here"
# error code -> the reason given to the customer, unless the domain words it
# (`DomainAnswers.reasons`). Unknown codes get DEFAULT.
REASONS: Mapping[str, str] = {
    "timeout": _UNAVAILABLE,
    "network_error": _UNAVAILABLE,
    "http_error": _UNAVAILABLE,
    "circuit_open": _UNAVAILABLE,
    "skill_error": _UNAVAILABLE,
    "knowledge_unavailable": _UNAVAILABLE,
    "replanned": "the service for it is not answering, so I used the record itself instead",
    "validation_error": _DETAILS,
    "binding_error": "I could not work out some details it needs; please state them explicitly",
    "domain_error": "the current state of the record does not allow it",
    # Same words for "no such record" and "someone else's": nothing leaks.
    "not_found": _NOT_FOUND,
    "not_owner": _NOT_FOUND,
    "permission_denied": _NOT_ALLOWED,
    "forbidden": _NOT_ALLOWED,
    "unknown_skill": _NOT_ALLOWED,
    "idempotency_in_progress": "the same change is already being processed; please check back shortly",
    "outcome_unknown": "I could not confirm whether it went through; a colleague will check it",
}  # fmt: skip
DEFAULT = "something went wrong on our side; please try again later"

# PlanRejected code -> the reason a refused plan is given to the customer.
PLAN_REASONS: Mapping[str, str] = {
    "forbidden": "it would touch other customers' data or many records at once",
    "too_many_tasks": "it has too many steps for one request; please ask for fewer things at once",
}
PLAN_DEFAULT = "I could not plan it safely; please rephrase the request"


def step_name(skill: str) -> str:
    """A skill id as words: `<verb>_<noun>_v1` -> "<verb> <noun>"."""
    return skill.rsplit("_v", 1)[0].replace("_", " ")


def failure_sentence(outcome: TaskOutcome, task: Task, domain: Domain) -> str:
    """One customer-safe sentence for a failed step; never repeats `outcome.error`."""
    target = domain.answers.target(task)
    reason = failure_reason(outcome, task, domain)
    return f"I could not complete {step_name(outcome.skill)}{target}: {reason}."


def failure_reason(outcome: TaskOutcome, task: Task, domain: Domain) -> str:
    """The reason given for `outcome`'s error code (and, for a binding, what was to be filled)."""
    if outcome.error_code == "binding_error":
        # Told from the step's own (planned) arguments, never from the error text.
        return domain.answers.binding_reason(task) or _reason(domain, "binding_error")
    if outcome.error_code == "precondition_failed":
        needs = domain.planning.precondition_text(outcome.skill)
        return f"this is only possible {needs}" if needs else _reason(domain, "domain_error")
    return _reason(domain, outcome.error_code or "")


def _reason(domain: Domain, code: str) -> str:
    return domain.answers.reasons.get(code) or REASONS.get(code, DEFAULT)


def plan_refusal(code: str) -> str:
    """The refusal a customer reads for a plan rejected with `code`."""
    return f"I can't do that: {PLAN_REASONS.get(code, PLAN_DEFAULT)}."
