"""What a customer is told about a step that did not succeed.

Error text from skills, bindings and exceptions is written for operators and
logs: it names arguments, validators and services, and a tool's message is
untrusted data. The customer reads fixed wording chosen by the outcome's
error code instead, in the turn's language; the raw text stays in the audit
trail and the run's state.
"""

from __future__ import annotations

from collections.abc import Mapping

from nodes.contracts import Task, TaskOutcome
from nodes.domain import Domain
from nodes.errors import BindingError, UnusableValue
from nodes.language import Bilingual, Lang, say

_UNAVAILABLE = Bilingual(
    "a service it depends on is not answering right now; please try again in a while",
    "相关服务暂时没有响应，请稍后再试",
)
_DETAILS = Bilingual(
    "some details it needs are missing or not in a form I can use; please check and ask again",
    "所需的部分信息缺失或无法识别，请核对后再问我一次",
)
_NOT_FOUND = Bilingual("I could not find that on your account", "我在您的账户中没有找到相关记录")
_NOT_ALLOWED = Bilingual("that is not something I can do here", "这项操作不在我能为您办理的范围内")
# error code -> the reason given to the customer, unless the domain words it
# (`DomainAnswers.reasons`). Unknown codes get DEFAULT.
REASONS: Mapping[str, Bilingual] = {
    "timeout": _UNAVAILABLE,
    "network_error": _UNAVAILABLE,
    "http_error": _UNAVAILABLE,
    "circuit_open": _UNAVAILABLE,
    "skill_error": _UNAVAILABLE,
    "knowledge_unavailable": _UNAVAILABLE,
    "replanned": Bilingual("the service for it is not answering, so I used the record itself instead",
                           "相关服务没有响应，所以我改为直接查看了记录本身"),
    "validation_error": _DETAILS,
    "binding_error": Bilingual("I could not work out some details it needs; please state them explicitly",
                               "我无法确定办理所需的部分信息，请明确告诉我"),
    "unusable_value": _DETAILS,
    "domain_error": Bilingual("the current state of the record does not allow it",
                              "记录目前的状态不允许这项操作"),
    # Same words for "no such record" and "someone else's": nothing leaks.
    "not_found": _NOT_FOUND,
    "not_owner": _NOT_FOUND,
    "permission_denied": _NOT_ALLOWED,
    "forbidden": _NOT_ALLOWED,
    "unknown_skill": _NOT_ALLOWED,
    "idempotency_in_progress": Bilingual("the same change is already being processed; please check back shortly",
                                         "同样的更改正在处理中，请稍后再查看"),
    "outcome_unknown": Bilingual("I could not confirm whether it went through; a colleague will check it",
                                 "我无法确认操作是否已经完成，同事会为您核实"),
}  # fmt: skip
DEFAULT = Bilingual(
    "something went wrong on our side; please try again later", "我们这边出了点问题，请稍后再试"
)

# PlanRejected code -> the reason a refused plan is given to the customer.
PLAN_REASONS: Mapping[str, Bilingual] = {
    "forbidden": Bilingual("it would touch other customers' data or many records at once",
                           "这会涉及其他客户的数据，或一次改动很多条记录"),
    "too_many_tasks": Bilingual("it has too many steps for one request; please ask for fewer things at once",
                                "一次请求的步骤太多了，请分几次提出"),
}  # fmt: skip
PLAN_DEFAULT = Bilingual(
    "I could not plan it safely; please rephrase the request",
    "我无法稳妥地安排这项操作，请换个说法再试",
)


def step_name(skill: str) -> str:
    """A skill id as words: `<verb>_<noun>_v1` -> "<verb> <noun>"."""
    return skill.rsplit("_v", 1)[0].replace("_", " ")


def step_words(skill: str, domain: Domain, lang: Lang) -> str:
    """The step's name as the customer reads it: the domain's, else from the skill id."""
    return domain.answers.step(skill, lang) or step_name(skill)


def failure_sentence(outcome: TaskOutcome, task: Task, domain: Domain, lang: Lang) -> str:
    """One customer-safe sentence for a failed step; never repeats `outcome.error`."""
    target = domain.answers.target(task, lang)
    reason = failure_reason(outcome, task, domain, lang)
    step = step_words(outcome.skill, domain, lang)
    return say(
        lang,
        f"I could not complete {step}{target}: {reason}.",
        f"抱歉，{target}“{step}”操作没能完成：{reason}。",
    )


def failure_reason(outcome: TaskOutcome, task: Task, domain: Domain, lang: Lang) -> str:
    """The reason given for `outcome`'s error code (and, for a binding, what was to be filled)."""
    if outcome.error_code in (BindingError.code, UnusableValue.code):
        # Told from the step's own (planned) arguments, never from the error text.
        told = domain.answers.binding_reason(task, lang)
        return told or _reason(domain, "binding_error", lang)
    if outcome.error_code == "precondition_failed":
        needs = domain.planning.precondition_text(outcome.skill, lang)
        if not needs:
            return _reason(domain, "domain_error", lang)
        return say(lang, f"this is only possible {needs}", f"只有在{needs}时才能办理")
    return _reason(domain, outcome.error_code or "", lang)


def _reason(domain: Domain, code: str, lang: Lang) -> str:
    return (domain.answers.reasons.get(code) or REASONS.get(code, DEFAULT)).say(lang)


def plan_refusal(code: str, lang: Lang) -> str:
    """The refusal a customer reads for a plan rejected with `code`."""
    reason = PLAN_REASONS.get(code, PLAN_DEFAULT).say(lang)
    return say(lang, f"I can't do that: {reason}.", f"抱歉，这个我无法办理：{reason}。")
