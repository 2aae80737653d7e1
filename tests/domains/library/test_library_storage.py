"""The library's own tables: migration, the shipped data set, the store's queries."""

from __future__ import annotations

from datetime import date

import psycopg
import pytest

from checkpoints.opening import Database
from domains.library.storage import seed, store


async def test_the_library_migration_is_recorded_under_its_namespace(
    library_db: Database,
) -> None:
    async with library_db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT name FROM rolegraph_migrations WHERE name LIKE 'library/%'"
        )
        names = [row["name"] for row in await cur.fetchall()]
    assert names == ["library/0001_library"]


async def test_the_data_set_loads_and_reloads_to_the_same_rows(library_db: Database) -> None:
    expected = {"holds": 3, "loans": 8, "copies": 18, "books": 15, "members": 5}
    async with library_db.pool.connection() as conn:
        assert await store.counts(conn) == expected
        assert await seed.load(conn) == expected  # replaces, never appends


async def test_a_members_loans_open_first_with_their_books(library_db: Database) -> None:
    async with library_db.pool.connection() as conn:
        loans = await store.loans_of(conn, "M-1002")
    assert [loan.loan_id for loan in loans] == ["LN-20003", "LN-20004"]
    assert loans[0].title == "Dream of the Red Chamber" and loans[0].returned_on is None
    assert loans[1].returned_on == date(2026, 10, 4)


async def test_a_hold_by_another_member_is_visible_on_the_loan(library_db: Database) -> None:
    async with library_db.pool.connection() as conn:
        held = await store.loan(conn, "LN-20002")  # BK-0003, held by M-1004
        free = await store.loan(conn, "LN-20001")
    assert held is not None and held.held_by_others
    assert free is not None and not free.held_by_others


async def test_book_availability_counts_open_loans_and_holds(library_db: Database) -> None:
    async with library_db.pool.connection() as conn:
        book = await store.book(conn, "BK-0003")
        missing = await store.book(conn, "BK-9999")
    assert book is not None and (book.copies, book.available, book.holds) == (2, 0, 1)
    assert missing is None


async def test_loan_owners_names_only_existing_loans(library_db: Database) -> None:
    async with library_db.pool.connection() as conn:
        owners = await store.loan_owners(conn, ["LN-20001", "LN-20005", "LN-99999"])
    assert owners == {"LN-20001": "M-1001", "LN-20005": "M-1003"}


async def test_the_schema_refuses_a_malformed_id_and_a_second_open_loan_of_a_copy(
    library_db: Database,
) -> None:
    async with library_db.pool.connection() as conn:
        with pytest.raises(psycopg.errors.CheckViolation):
            await conn.execute("INSERT INTO members VALUES ('1001', 'X', 'x@example.org', 'en')")
        with pytest.raises(psycopg.errors.UniqueViolation):
            await conn.execute(
                "INSERT INTO loans (loan_id, member_id, copy_id, borrowed_on, due_on)"
                " VALUES ('LN-29999', 'M-1005', 'C-0001', '2026-11-01', '2026-11-22')"
            )
