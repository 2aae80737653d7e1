"""The library's read and write tools: member loans, books, renewals and fine waivers."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from domains.library.storage import store
from domains.library.storage.models import LoanView
from domains.library.tools.executors import ensure_owner
from domains.library.tools.results import BookResult, LoanResult, MemberLoansResult
from skills.contract import SkillContext
from skills.errors import DomainError, RecordNotFound

RENEWAL_DAYS = 14
MAX_RENEWALS = 2


def loan_result(view: LoanView) -> LoanResult:
    return LoanResult.model_validate(view.model_dump(exclude={"member_id", "held_by_others"}))


async def get_member_loans(
    conn: store.Conn, args: dict[str, Any], ctx: SkillContext
) -> MemberLoansResult:
    ensure_owner(ctx, args["member_id"], "member")
    member = await store.member(conn, args["member_id"])
    if member is None:
        raise RecordNotFound("Member not found")
    loans = await store.loans_of(conn, member.member_id)
    fines = sum(v.fine_cents for v in loans if not v.fine_waived)
    return MemberLoansResult(
        member_id=member.member_id,
        name=member.name,
        loans=tuple(loan_result(v) for v in loans),
        fines_cents=fines,
        fines_due=f"{fines / 100:.2f}",
    )


async def get_book(conn: store.Conn, args: dict[str, Any], ctx: SkillContext) -> BookResult:
    book = await store.book(conn, args["book_id"])
    if book is None:
        raise RecordNotFound("Book not found")
    return BookResult.model_validate(book.model_dump())


async def _own_loan(conn: store.Conn, loan_id: str, ctx: SkillContext) -> LoanView:
    view = await store.loan(conn, loan_id, for_update=True)
    if view is None:
        raise RecordNotFound("Loan not found")
    ensure_owner(ctx, view.member_id, "loan")
    return view


async def renew_loan(conn: store.Conn, args: dict[str, Any], ctx: SkillContext) -> LoanResult:
    """Push an open loan's due date back by two weeks, at most twice, never over a hold."""
    view = await _own_loan(conn, args["loan_id"], ctx)
    if view.returned_on is not None:
        raise DomainError("The loan was returned; only an open loan can be renewed")
    if view.renewals >= MAX_RENEWALS:
        raise DomainError(f"The loan was renewed {MAX_RENEWALS} times already")
    if view.held_by_others:
        raise DomainError("Another member holds this book; return it instead of renewing")
    due_on = view.due_on + timedelta(days=RENEWAL_DAYS)
    await store.set_due(conn, view.loan_id, due_on, view.renewals + 1)
    return loan_result(view.model_copy(update={"due_on": due_on, "renewals": view.renewals + 1}))


async def waive_fine(conn: store.Conn, args: dict[str, Any], ctx: SkillContext) -> LoanResult:
    """Clear a loan's fine (the reason is audited with the approved arguments)."""
    view = await _own_loan(conn, args["loan_id"], ctx)
    if view.fine_cents == 0 or view.fine_waived:
        raise DomainError("The loan has no fine to waive")
    await store.waive_fine(conn, view.loan_id)
    return loan_result(view.model_copy(update={"fine_cents": 0, "fine_waived": True}))
