"""Rows of the library's tables as typed records, and the shipped data set's shape."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

LoanId = str
MemberId = str


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Member(_Row):
    member_id: MemberId = Field(pattern=r"^M-[0-9]{4}$")
    name: str
    email: str
    lang: Literal["en", "zh"] = "en"


class Book(_Row):
    book_id: str = Field(pattern=r"^BK-[0-9]{4}$")
    title: str
    author: str
    year: int


class Copy(_Row):
    copy_id: str = Field(pattern=r"^C-[0-9]{4}$")
    book_id: str
    shelf: str


class Loan(_Row):
    loan_id: LoanId = Field(pattern=r"^LN-[0-9]{5}$")
    member_id: MemberId
    copy_id: str
    borrowed_on: date
    due_on: date
    returned_on: date | None = None
    renewals: int = Field(default=0, ge=0, le=2)
    fine_cents: int = Field(default=0, ge=0)
    fine_waived: bool = False


class Hold(_Row):
    hold_id: str = Field(pattern=r"^H-[0-9]{4}$")
    member_id: MemberId
    book_id: str
    placed_on: date


class LibraryData(_Row):
    """The whole data set, as `data/library.json` holds it."""

    members: tuple[Member, ...]
    books: tuple[Book, ...]
    copies: tuple[Copy, ...]
    loans: tuple[Loan, ...]
    holds: tuple[Hold, ...] = ()


class LoanView(_Row):
    """A loan as a member sees it: with the book it is a copy of."""

    loan_id: LoanId
    member_id: MemberId
    book_id: str
    title: str
    due_on: date
    returned_on: date | None
    renewals: int
    fine_cents: int
    fine_waived: bool
    held_by_others: bool
