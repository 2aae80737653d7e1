"""The result model of every library skill: what callers may read from a payload."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict


class _Result(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LoanResult(_Result):
    loan_id: str
    book_id: str
    title: str
    due_on: date
    returned_on: date | None
    renewals: int
    fine_cents: int
    fine_waived: bool


class MemberLoansResult(_Result):
    member_id: str
    name: str
    loans: tuple[LoanResult, ...]
    fines_cents: int
    """Unwaived fines over all the member's loans."""
    fines_due: str
    """The same amount as the answer states it ("3.50"), so the reviewer can trace it."""


class BookResult(_Result):
    book_id: str
    title: str
    author: str
    year: int
    copies: int
    available: int
    holds: int


class NotificationResult(_Result):
    notification_id: int
    recipient: str
    """Masked: enough to recognise, not enough to harvest."""
    status: Literal["queued", "sent", "failed"]
    message_id: str


class PolicyHit(_Result):
    partition: str
    slug: str
    title: str
    lang: str
    topic: str | None = None
    rank: float
    snippet: str


class PolicyResult(_Result):
    query: str
    results: tuple[PolicyHit, ...]
