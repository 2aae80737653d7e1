"""The one module that reads and writes the library's tables.

Every query the pack runs is here, on a connection the caller holds: a write
tool opens the transaction (and locks the loan with `for_update=True`), this
module only states the SQL.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

import psycopg
from psycopg.rows import DictRow
from pydantic import BaseModel, ConfigDict

from domains.library.storage.models import LibraryData, LoanView, Member

Conn = psycopg.AsyncConnection[DictRow]
TABLES = ("holds", "loans", "copies", "books", "members")
"""Children first: the order rows can be deleted in."""

_LOAN_VIEW = (
    "SELECT l.loan_id, l.member_id, c.book_id, b.title, l.due_on, l.returned_on, l.renewals,"
    " l.fine_cents, l.fine_waived, EXISTS (SELECT 1 FROM holds h WHERE h.book_id = c.book_id"
    " AND h.member_id <> l.member_id) AS held_by_others"
    " FROM loans l JOIN copies c ON c.copy_id = l.copy_id JOIN books b ON b.book_id = c.book_id"
)


class BookView(BaseModel):
    """A book with how many of its copies are on the shelf and how many holds wait for it."""

    model_config = ConfigDict(frozen=True)

    book_id: str
    title: str
    author: str
    year: int
    copies: int
    available: int
    holds: int


async def replace_all(conn: Conn, data: LibraryData) -> None:
    """Make the tables hold exactly `data` (call inside a transaction)."""
    await conn.execute("TRUNCATE " + ", ".join(TABLES))
    await _insert(conn, "members", [m.model_dump() for m in data.members])
    await _insert(conn, "books", [b.model_dump() for b in data.books])
    await _insert(conn, "copies", [c.model_dump() for c in data.copies])
    await _insert(conn, "loans", [loan.model_dump() for loan in data.loans])
    await _insert(conn, "holds", [h.model_dump() for h in data.holds])


async def read_all(conn: Conn) -> LibraryData:
    """Every row of the tables, as the data set they hold."""
    rows = {}
    for table in TABLES:
        cur = await conn.execute(f"SELECT * FROM {table} ORDER BY 1".encode())
        rows[table] = await cur.fetchall()
    return LibraryData.model_validate(rows)


async def _insert(conn: Conn, table: str, rows: Sequence[dict[str, object]]) -> None:
    if not rows:
        return
    columns = list(rows[0])
    sql = (
        f"INSERT INTO {table} ({', '.join(columns)})"
        f" VALUES ({', '.join('%(' + c + ')s' for c in columns)})"
    )
    async with conn.cursor() as cur:
        await cur.executemany(sql.encode(), rows)


async def counts(conn: Conn) -> dict[str, int]:
    """Rows per table."""
    found: dict[str, int] = {}
    for table in TABLES:
        cur = await conn.execute(f"SELECT count(*) AS n FROM {table}".encode())
        row = await cur.fetchone()
        found[table] = int(row["n"]) if row else 0
    return found


async def member(conn: Conn, member_id: str) -> Member | None:
    cur = await conn.execute(
        "SELECT member_id, name, email, lang FROM members WHERE member_id = %s", (member_id,)
    )
    row = await cur.fetchone()
    return Member.model_validate(row) if row else None


async def loans_of(conn: Conn, member_id: str) -> list[LoanView]:
    """The member's loans, open ones first, then by due date."""
    cur = await conn.execute(
        _LOAN_VIEW + " WHERE l.member_id = %s"
        " ORDER BY l.returned_on IS NOT NULL, l.due_on, l.loan_id",
        (member_id,),
    )
    return [LoanView.model_validate(row) for row in await cur.fetchall()]


async def loan(conn: Conn, loan_id: str, *, for_update: bool = False) -> LoanView | None:
    """One loan; `for_update` locks its row until the caller's transaction ends."""
    sql = _LOAN_VIEW + " WHERE l.loan_id = %s" + (" FOR UPDATE OF l" if for_update else "")
    cur = await conn.execute(sql.encode(), (loan_id,))
    row = await cur.fetchone()
    return LoanView.model_validate(row) if row else None


async def loan_owners(conn: Conn, loan_ids: Iterable[str]) -> dict[str, str]:
    """loan id -> member id, for the ids that exist."""
    cur = await conn.execute(
        "SELECT loan_id, member_id FROM loans WHERE loan_id = ANY(%s)", (list(loan_ids),)
    )
    return {row["loan_id"]: row["member_id"] for row in await cur.fetchall()}


async def book(conn: Conn, book_id: str) -> BookView | None:
    cur = await conn.execute(
        "SELECT b.book_id, b.title, b.author, b.year,"
        " (SELECT count(*) FROM copies c WHERE c.book_id = b.book_id) AS copies,"
        " (SELECT count(*) FROM copies c WHERE c.book_id = b.book_id AND NOT EXISTS"
        "   (SELECT 1 FROM loans l WHERE l.copy_id = c.copy_id AND l.returned_on IS NULL))"
        "   AS available,"
        " (SELECT count(*) FROM holds h WHERE h.book_id = b.book_id) AS holds"
        " FROM books b WHERE b.book_id = %s",
        (book_id,),
    )
    row = await cur.fetchone()
    return BookView.model_validate(row) if row else None


async def titles(conn: Conn) -> tuple[str, ...]:
    """Every book title, for reading requests that name a book."""
    cur = await conn.execute("SELECT title FROM books ORDER BY title")
    return tuple(row["title"] for row in await cur.fetchall())


async def set_due(conn: Conn, loan_id: str, due_on: date, renewals: int) -> None:
    await conn.execute(
        "UPDATE loans SET due_on = %s, renewals = %s WHERE loan_id = %s",
        (due_on, renewals, loan_id),
    )


async def waive_fine(conn: Conn, loan_id: str) -> None:
    await conn.execute(
        "UPDATE loans SET fine_cents = 0, fine_waived = true WHERE loan_id = %s", (loan_id,)
    )
