"""Why the desk declined a renewal or a waiver, and what the member can do instead.

Told from the loan as the read before the write found it (what the
precondition checked), else from which of the desk tools' fixed error
messages was raised; the message itself is operator text and never repeated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from domains.library.tools.loans import MAX_RENEWALS
from domains.library.tools.results import LoanResult, MemberLoansResult
from nodes.contracts import Task, TaskOutcome
from nodes.language import Bilingual, Lang

RETURNED = Bilingual(
    "Loan {loan_id} was already returned, so there is nothing to renew; you can borrow the book again while it is on the shelf.",
    "借阅 {loan_id} 已经归还，无需续借；如果书在架上，您可以重新借阅。",
)  # fmt: skip
LIMIT = Bilingual(
    "Loan {loan_id} was renewed {max} times already, the most a loan allows; please return the book by {due}.",
    "借阅 {loan_id} 已经续借过 {max} 次，达到了续借上限；请在 {due} 前归还。",
)  # fmt: skip
HELD = Bilingual(
    "Another member is waiting for the book of loan {loan_id}, so it cannot be renewed; please return it by {due}.",
    "借阅 {loan_id} 的图书已有其他读者预约，无法续借；请在 {due} 前归还。",
)  # fmt: skip
NO_FINE = Bilingual(
    "Loan {loan_id} has no fine to waive; there is nothing to pay.",
    "借阅 {loan_id} 没有需要减免的罚款，您无需支付任何费用。",
)
DUE_UNKNOWN = Bilingual("its due date", "到期日")
# A fragment of a desk tool's own error message -> why not; first match wins.
BY_MESSAGE: tuple[tuple[str, Bilingual], ...] = (
    ("was returned", RETURNED),
    ("times already", LIMIT),
    ("Another member holds", HELD),
    ("no fine", NO_FINE),
)


def declined_sentence(
    task: Task, outcome: TaskOutcome, results: Mapping[str, Any], lang: Lang
) -> str | None:
    """Why the loan write was declined and what instead; None when the desk has no words for it."""
    loan_id = task.args.get("loan_id")
    if outcome.skill not in ("renew_loan_v1", "waive_fine_v1") or not isinstance(loan_id, str):
        return None
    loan = _loan_read(loan_id, results)
    told = _by_loan(outcome.skill, loan) if loan else None
    if told is None and outcome.error_code == "domain_error":
        message = outcome.error or ""
        told = next((words for fragment, words in BY_MESSAGE if fragment in message), None)
    if told is None:
        return None
    due = loan.due_on.isoformat() if loan else DUE_UNKNOWN.say(lang)
    return told.say(lang).format(loan_id=loan_id, max=MAX_RENEWALS, due=due)


def _by_loan(skill: str, loan: LoanResult) -> Bilingual | None:
    if skill == "waive_fine_v1":
        return NO_FINE if loan.fine_cents == 0 or loan.fine_waived else None
    if loan.returned_on is not None:
        return RETURNED
    return LIMIT if loan.renewals >= MAX_RENEWALS else None


def _loan_read(loan_id: str, results: Mapping[str, Any]) -> LoanResult | None:
    for payload in results.values():
        try:
            member = MemberLoansResult.model_validate(payload)
        except ValidationError:
            continue
        found = next((loan for loan in member.loans if loan.loan_id == loan_id), None)
        if found is not None:
            return found
    return None
