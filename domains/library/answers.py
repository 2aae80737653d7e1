"""Sentences of the library desk's answers, and what its reviewer checks in them.

Payloads are read through the skills' result models, never by guessing keys:
one that does not fit its model is not described. Text that comes from data
(a book title, a policy passage) is quoted with `quote_data`, never obeyed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from domains.library.declines import declined_sentence
from domains.library.tools.results import (
    BookResult,
    LoanResult,
    MemberLoansResult,
    NotificationResult,
    PolicyResult,
)
from nodes.contracts import Decision, Task, TaskOutcome
from nodes.language import Bilingual, Lang, say
from nodes.quoting import quote_data

Model = TypeVar("Model", bound=BaseModel)
WRITES = frozenset({"renew_loan_v1", "waive_fine_v1"})
"""Writes on a loan: once one succeeded, the loan list read before it is stale."""

REFUSALS: Mapping[str, Bilingual] = {
    "out_of_scope": Bilingual(
        "I can help with your loans, renewals, fines, book availability and the loan policy. "
        "That request is outside what the loans desk can do.",
        "我可以帮您处理借阅、续借、罚款、馆藏查询以及借阅规定方面的问题，"
        "这个请求超出了借阅服务台能办理的范围。",
    ),
    "no_customer": Bilingual(
        "I could not find your library membership; please check your member id.",
        "我没有找到您的借阅证信息，请核对您的读者编号。",
    ),
    "foreign": Bilingual(
        "I can't find {ids} among your loans, so I can't act on it.",
        "我在您的借阅记录中找不到 {ids}，所以无法为您办理。",
    ),
}
STEPS_ZH: Mapping[str, str] = {
    "get_member_loans_v1": "查询借阅",
    "get_book_v1": "查询图书",
    "renew_loan_v1": "续借",
    "waive_fine_v1": "减免罚款",
    "send_notification_v1": "发送邮件",
    "search_policy_v1": "查询借阅规定",
}
"""Each desk step's name as a Chinese member reads it (English names come from the id)."""
Describe = Callable[[Any, Lang], list[str]]


def _loans(payload: Any, lang: Lang) -> list[str]:
    member = MemberLoansResult.model_validate(payload)
    out = [loan for loan in member.loans if loan.returned_on is None]
    if not out:
        sentences = [say(lang, "You have no books out on loan.", "您目前没有在借的图书。")]
    else:
        listed = say(lang, "; ", "；").join(_loan_line(loan, lang) for loan in out)
        sentences = [say(lang, f"You have {len(out)} book(s) on loan: {listed}.",
                         f"您目前借了 {len(out)} 本书：{listed}。")]  # fmt: skip
    if member.fines_cents:
        sentences.append(say(lang, f"Your unpaid fines come to ${member.fines_due}.",
                             f"您尚未缴纳的罚款共计 ${member.fines_due}。"))  # fmt: skip
    return sentences


def _loan_line(loan: LoanResult, lang: Lang) -> str:
    title, due = quote_data(loan.title), loan.due_on.isoformat()
    return say(
        lang, f'{loan.loan_id} "{title}" due {due}', f"{loan.loan_id}《{title}》，{due} 到期"
    )


def _book(payload: Any, lang: Lang) -> list[str]:
    book = BookResult.model_validate(payload)
    title = quote_data(book.title)
    if lang == "zh":
        return [f"{book.book_id}《{title}》：在架 {book.available} 本（共 {book.copies} 本），"
                f"预约 {book.holds} 人。"]  # fmt: skip
    shelf = f"{book.available} of {book.copies} copies on the shelf"
    return [f'{book.book_id} "{title}": {shelf}, {book.holds} hold(s).']


def _renewed(payload: Any, lang: Lang) -> list[str]:
    loan = LoanResult.model_validate(payload)
    due = loan.due_on.isoformat()
    return [say(lang, f"Loan {loan.loan_id} is renewed: it is now due {due}.",
                f"借阅 {loan.loan_id} 已续借成功，新的到期日为 {due}。")]  # fmt: skip


def _waived(payload: Any, lang: Lang) -> list[str]:
    loan = LoanResult.model_validate(payload)
    return [say(lang, f"The fine on loan {loan.loan_id} is waived.",
                f"借阅 {loan.loan_id} 的罚款已为您减免。")]  # fmt: skip


def _notified(payload: Any, lang: Lang) -> list[str]:
    sent = NotificationResult.model_validate(payload)
    return [say(lang, f"An e-mail to {sent.recipient} is queued for delivery.",
                f"发给 {sent.recipient} 的邮件已加入发送队列。")]  # fmt: skip


def _policy(payload: Any, lang: Lang) -> list[str]:
    result = PolicyResult.model_validate(payload)
    if not result.results:
        return [say(lang, "I found nothing about that in our loan policy.",
                    "借阅规定中没有找到相关内容。")]  # fmt: skip
    best = result.results[0]
    title, snippet = quote_data(best.title), quote_data(best.snippet)
    return [say(lang, f"From our loan policy ({title}): {snippet}",
                f"借阅规定（{title}）：{snippet}")]  # fmt: skip


_DESCRIBE: Mapping[str, Describe] = {
    "get_member_loans_v1": _loans,
    "get_book_v1": _book,
    "renew_loan_v1": _renewed,
    "waive_fine_v1": _waived,
    "send_notification_v1": _notified,
    "search_policy_v1": _policy,
}


def _parse(model: type[Model], payload: Any) -> Model | None:
    try:
        return model.model_validate(payload)
    except ValidationError:
        return None


class LibraryAnswers:
    """`DomainAnswers` of the library desk."""

    # A date is bounded by anything but an ASCII word character: "，2024-05-01到期" shows it.
    facts = re.compile(
        r"LN-\d{5}|BK-\d{4}|\$\d+(?:\.\d{2})?|\d+(?:\.\d{1,2})? ?美元"
        r"|(?<![0-9A-Za-z_])\d{4}-\d{2}-\d{2}(?![0-9A-Za-z_])"
    )
    claims: Mapping[str, str] = {
        "is renewed": "renew_loan_v1",
        "is waived": "waive_fine_v1",
        "is queued for delivery": "send_notification_v1",
        "已续借成功": "renew_loan_v1",
        "已为您减免": "waive_fine_v1",
        "已加入发送队列": "send_notification_v1",
    }
    statuses: Mapping[str, tuple[str, ...]] = {
        "renewed": ("已续借",),
        "waived": ("已减免", "已为您减免"),
        "returned": ("已归还",),
        "overdue": ("逾期",),
        "queued": ("已加入发送队列",),
    }
    """Loan and notification states a model draft may only state when the template does."""
    refusals: Mapping[str, Bilingual] = REFUSALS
    foreign: Mapping[str, str] = {"loan_ids": "another loan"}
    reasons: Mapping[str, Bilingual] = {}
    """The harness's generic failure reasons fit the desk; its tools' own errors are one line."""

    def describe(
        self, task: Task, outcome: TaskOutcome, lang: Lang, *, feeds: bool = False
    ) -> list[str]:
        sentences = _DESCRIBE.get(task.skill)
        try:
            return sentences(outcome.payload, lang) if sentences else []
        except ValidationError:
            return []  # not the skill's result shape: said nothing rather than guessed

    def supersedes(self, write: Task, read: Task) -> bool:
        return write.skill in WRITES and read.skill == "get_member_loans_v1"

    def own_ids(self, outcome: TaskOutcome) -> tuple[str, ...]:
        if outcome.skill != "get_member_loans_v1":
            return ()
        member = _parse(MemberLoansResult, outcome.payload)
        return tuple(loan.loan_id for loan in member.loans) if member else ()

    def stance(self, outcome: TaskOutcome) -> None:
        return None  # no library plan asks several roles one question

    def binding_reason(self, task: Task, lang: Lang) -> str | None:
        return None  # the only marker (the loan summary) needs nothing from the member

    def decision(self, decision: Decision, lang: Lang) -> str:
        return say(lang, f"Most likely: {decision.answer}.", f"最有可能的是：{decision.answer}。")

    def declined(
        self, task: Task, outcome: TaskOutcome, results: Mapping[str, Any], lang: Lang
    ) -> str | None:
        return declined_sentence(task, outcome, results, lang)

    def condition_sentence(self, task: Task, tested: TaskOutcome, held: bool, lang: Lang) -> str:
        # The desk plans no conditions (`LibraryPlanning.condition_fields`); a plan
        # handed in with one is still told which way it went.
        if held:
            return say(lang, "The condition you gave is met.", "符合您提出的条件。")
        return say(lang, "The condition you gave is not met, so I did not do that step.",
                   "您提出的条件不满足，所以我没有办理这一步。")  # fmt: skip

    def target(self, task: Task, lang: Lang) -> str:
        loan_id = task.args.get("loan_id")
        if not isinstance(loan_id, str):
            return ""
        return say(lang, f" for loan {loan_id}", f"借阅 {loan_id} 的")

    def step(self, skill: str, lang: Lang) -> str | None:
        return STEPS_ZH.get(skill) if lang == "zh" else None
