"""Rules-tier plans of the library desk, and what fills them in at run time.

Every write reads the member's loans first: the read is the precondition
check ("is the loan open, does it have a fine?") and what an approver sees.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from domains.library.tools.loans import MAX_RENEWALS
from domains.library.tools.results import LoanResult, MemberLoansResult
from domains.library.vocabulary import slot
from nodes.contracts import Plan, Task, Understanding
from nodes.domain import ConditionField
from nodes.errors import BindingError, PreconditionFailed
from nodes.language import Bilingual, Lang

Model = TypeVar("Model", bound=BaseModel)
DESK, FINES, NOTIFIER = "circulation_desk", "fines_officer", "notifier"
LOAN_SUMMARY = "loan_summary"
_PRECONDITIONS: Mapping[str, Bilingual] = {
    "renew_loan_v1": Bilingual("while the loan is open and renewed fewer than twice",
                               "这笔借阅尚未归还、且续借少于两次"),
    "waive_fine_v1": Bilingual("while the loan has a fine that was not waived",
                               "这笔借阅有尚未减免的罚款"),
}  # fmt: skip


@dataclass
class _Builder:
    understanding: Understanding
    user_id: str
    tasks: list[Task] = field(default_factory=list)

    def add(self, role: str, skill: str, args: dict[str, Any], after: tuple[str, ...] = ()) -> str:
        task_id = f"t{len(self.tasks) + 1}"
        self.tasks.append(Task(id=task_id, role=role, skill=skill, args=args, depends_on=after))
        return task_id

    def loans(self, role: str = DESK) -> str:
        """The member's loans, read once per role."""
        for task in self.tasks:
            if task.skill == "get_member_loans_v1" and task.role == role:
                return task.id
        return self.add(role, "get_member_loans_v1", {"member_id": self.user_id})


def _nothing(b: _Builder) -> None:
    return None


def _loan_status(b: _Builder) -> None:
    b.loans()


def _books(b: _Builder) -> None:
    for book_id in slot(b.understanding, "book_ids"):
        b.add(DESK, "get_book_v1", {"book_id": book_id})


def _renew(b: _Builder) -> None:
    read = b.loans()
    for loan_id in slot(b.understanding, "loan_ids"):
        b.add(DESK, "renew_loan_v1", {"loan_id": loan_id}, after=(read,))


def _waive(b: _Builder) -> None:
    read = b.loans(FINES)
    reason = next(iter(slot(b.understanding, "reason")), "first offence")
    for loan_id in slot(b.understanding, "loan_ids"):
        b.add(FINES, "waive_fine_v1", {"loan_id": loan_id, "reason": reason}, after=(read,))


def _policy(b: _Builder) -> None:
    b.add(DESK, "search_policy_v1", {"query": b.understanding.masked_text[:500]})


def _notify(b: _Builder) -> None:
    """Last: e-mail what the steps before it did (only once they all succeeded)."""
    after = tuple(t.id for t in b.tasks) or (b.loans(),)
    body = {"member_id": b.user_id, "subject": "Your library loans", "body": "bind:" + LOAN_SUMMARY}
    b.add(NOTIFIER, "send_notification_v1", body, after=after)


_TEMPLATES: Mapping[str, Callable[[_Builder], None]] = {
    "loan_status": _loan_status,
    "book_availability": _books,
    "renew_loan": _renew,
    "waive_fine": _waive,
    "policy_question": _policy,
}


class LibraryPlanning:
    """`DomainPlanning` of the library desk."""

    unplannable: frozenset[str] = frozenset()
    bulk_args: frozenset[str] = frozenset({"member_ids", "loan_ids"})
    customer_args: frozenset[str] = frozenset({"member_id"})
    condition_fields: tuple[ConditionField, ...] = ()
    """None: the desk's natural condition ("renew it if it is not overdue") tests one loan
    of the member's list against today's date, not a field of a result; and whether a loan
    can be renewed at all is already its write's precondition."""

    def plan(self, understanding: Understanding, user_id: str) -> Plan:
        builder = _Builder(understanding, user_id)
        for intent in understanding.intents:
            _TEMPLATES.get(intent, _nothing)(builder)
        if "notify" in understanding.intents:
            _notify(builder)
        rationale = "rules templates: " + ", ".join(understanding.intents)
        return Plan(tasks=tuple(builder.tasks), rationale=rationale)

    def is_marker(self, marker: str) -> bool:
        return marker == LOAN_SUMMARY

    def bind(self, marker: str, results: Mapping[str, Any]) -> Any:
        if marker != LOAN_SUMMARY:
            raise BindingError(marker, "the library desk has no such value")
        lines = _summary(results)
        if not lines:
            raise BindingError(marker, "the step it depends on returned nothing usable")
        return "\n".join(lines)

    def summarize(self, results: Mapping[str, Any]) -> str:
        """The loans the results show, one line each, as an approver reads them."""
        return "\n".join(_summary(results)) or "No loan was read."

    def prepare_args(self, skill: str, args: Mapping[str, Any]) -> dict[str, Any]:
        return dict(args)  # every plan value already has its skill's shape

    def check_preconditions(
        self, skill: str, args: Mapping[str, Any], results: Mapping[str, Any]
    ) -> None:
        if skill not in _PRECONDITIONS:
            return
        loan = _loan_read_earlier(str(args.get("loan_id")), results)
        if loan is None:
            return  # not among the member's loans: the write itself answers not found
        if skill == "renew_loan_v1" and (
            loan.returned_on is not None or loan.renewals >= MAX_RENEWALS
        ):
            raise PreconditionFailed(f"loan {loan.loan_id} cannot be renewed; this is only "
                                     f"possible {_PRECONDITIONS[skill].en}")  # fmt: skip
        if skill == "waive_fine_v1" and (loan.fine_cents == 0 or loan.fine_waived):
            raise PreconditionFailed(f"loan {loan.loan_id} has no fine; this is only "
                                     f"possible {_PRECONDITIONS[skill].en}")  # fmt: skip

    def precondition_text(self, skill: str, lang: Lang) -> str | None:
        needs = _PRECONDITIONS.get(skill)
        return needs.say(lang) if needs else None


def _loan_read_earlier(loan_id: str, results: Mapping[str, Any]) -> LoanResult | None:
    for payload in results.values():
        member = _parse(MemberLoansResult, payload)
        loans = member.loans if member else ()
        found = next((loan for loan in loans if loan.loan_id == loan_id), None)
        if found is not None:
            return found
    return None


def _summary(results: Mapping[str, Any]) -> list[str]:
    """One line per loan: the loans a write changed, else the open loans read.

    A loan list read before a write is stale once the write succeeded, so it
    is summarised only when no write result is among the results.
    """
    written = [_parse(LoanResult, payload) for payload in results.values()]
    changed = [loan for loan in written if loan is not None]
    if changed:
        return [
            f"Loan {loan.loan_id}: due {loan.due_on.isoformat()}, fine ${loan.fine_cents / 100:.2f}"
            for loan in changed
        ]
    lines = []
    for payload in results.values():
        member = _parse(MemberLoansResult, payload)
        open_loans = [loan for loan in member.loans if loan.returned_on is None] if member else []
        lines += [f"Loan {loan.loan_id}: due {loan.due_on.isoformat()}" for loan in open_loans]
    return lines


def _parse(model: type[Model], payload: Any) -> Model | None:
    try:
        return model.model_validate(payload)
    except ValidationError:
        return None
