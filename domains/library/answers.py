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

from domains.library.tools.results import (
    BookResult,
    LoanResult,
    MemberLoansResult,
    NotificationResult,
    PolicyResult,
)
from nodes.contracts import Decision, Task, TaskOutcome
from nodes.quoting import quote_data

Model = TypeVar("Model", bound=BaseModel)
WRITES = frozenset({"renew_loan_v1", "waive_fine_v1"})
"""Writes on a loan: once one succeeded, the loan list read before it is stale."""

REFUSALS: Mapping[str, str] = {
    "out_of_scope": (
        "I can help with your loans, renewals, fines, book availability and the loan policy. "
        "That request is outside what the loans desk can do."
    ),
    "no_customer": "I could not find your library membership; please check your member id.",
    "foreign": "I can't find {ids} among your loans, so I can't act on it.",
}


def _loans(payload: Any) -> list[str]:
    member = MemberLoansResult.model_validate(payload)
    out = [loan for loan in member.loans if loan.returned_on is None]
    if not out:
        sentences = ["You have no books out on loan."]
    else:
        listed = "; ".join(
            f'{loan.loan_id} "{quote_data(loan.title)}" due {loan.due_on.isoformat()}'
            for loan in out
        )
        sentences = [f"You have {len(out)} book(s) on loan: {listed}."]
    if member.fines_cents:
        sentences.append(f"Your unpaid fines come to ${member.fines_due}.")
    return sentences


def _book(payload: Any) -> list[str]:
    book = BookResult.model_validate(payload)
    shelf = f"{book.available} of {book.copies} copies on the shelf"
    return [f'{book.book_id} "{quote_data(book.title)}": {shelf}, {book.holds} hold(s).']


def _renewed(payload: Any) -> list[str]:
    loan = LoanResult.model_validate(payload)
    return [f"Loan {loan.loan_id} is renewed: it is now due {loan.due_on.isoformat()}."]


def _waived(payload: Any) -> list[str]:
    loan = LoanResult.model_validate(payload)
    return [f"The fine on loan {loan.loan_id} is waived."]


def _notified(payload: Any) -> list[str]:
    sent = NotificationResult.model_validate(payload)
    return [f"An e-mail to {sent.recipient} is queued for delivery."]


def _policy(payload: Any) -> list[str]:
    result = PolicyResult.model_validate(payload)
    if not result.results:
        return ["I found nothing about that in our loan policy."]
    best = result.results[0]
    return [f"From our loan policy ({quote_data(best.title)}): {quote_data(best.snippet)}"]


_DESCRIBE: Mapping[str, Callable[[Any], list[str]]] = {
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

    facts = re.compile(r"LN-\d{5}|BK-\d{4}|\$\d+(?:\.\d{2})?|\b\d{4}-\d{2}-\d{2}\b")
    claims: Mapping[str, str] = {
        "is renewed": "renew_loan_v1",
        "is waived": "waive_fine_v1",
        "is queued for delivery": "send_notification_v1",
    }
    refusals: Mapping[str, str] = REFUSALS
    foreign: Mapping[str, str] = {"loan_ids": "another loan"}
    reasons: Mapping[str, str] = {}
    """The harness's generic failure reasons fit the desk; its tools' own errors are one line."""

    def describe(self, task: Task, outcome: TaskOutcome) -> list[str]:
        sentences = _DESCRIBE.get(task.skill)
        try:
            return sentences(outcome.payload) if sentences else []
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

    def binding_reason(self, task: Task) -> str | None:
        return None  # the only marker (the loan summary) needs nothing from the member

    def decision(self, decision: Decision) -> str:
        return f"Most likely: {decision.answer}."

    def target(self, task: Task) -> str:
        loan_id = task.args.get("loan_id")
        return f" for loan {loan_id}" if isinstance(loan_id, str) else ""
