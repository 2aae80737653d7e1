"""Row-writing plumbing shared by the loader and the entity writers."""

from __future__ import annotations

from collections.abc import Sequence

import psycopg
from psycopg.rows import DictRow

from domains.retail.storage.tables import COLUMNS

Conn = psycopg.AsyncConnection[DictRow]
Row = tuple[object, ...]
# Errors a bad row causes: constraint violations and out-of-domain values.
ROW_ERRORS = (psycopg.errors.IntegrityError, psycopg.errors.DataError)


async def copy_rows(conn: Conn, table: str, rows: Sequence[Row]) -> None:
    """COPY rows (in `tables.COLUMNS[table]` order): one round trip per table."""
    if not rows:
        return
    columns = ", ".join(COLUMNS[table])
    async with conn.cursor() as cur, cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            await copy.write_row(row)


async def insert_rows(conn: Conn, table: str, rows: Sequence[Row]) -> None:
    """INSERT a few rows (pipelined); for one entity, cheaper than a COPY."""
    if not rows:
        return
    columns = COLUMNS[table]
    placeholders = ", ".join(["%s"] * len(columns))
    query = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({placeholders})"
    async with conn.cursor() as cur:
        await cur.executemany(query, rows)


async def upsert_row(conn: Conn, table: str, row: Row, *, owner: str | None = None) -> bool:
    """Insert or update one row by its first column; False if `owner` blocked the update.

    With `owner`, an existing row is only updated when that column already
    has the new value, so one user's row cannot be taken over by another.
    """
    columns = COLUMNS[table]
    key, rest = columns[0], columns[1:]
    updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in rest)
    guard = f" WHERE {table}.{owner} = EXCLUDED.{owner}" if owner else ""
    query = (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
        f" ON CONFLICT ({key}) DO UPDATE SET {updates}{guard}"
    )
    cur = await conn.execute(query, row)
    return cur.rowcount == 1


def describe_db_error(exc: psycopg.Error) -> str:
    """A constraint violation as one line: the server's message and its detail."""
    primary = exc.diag.message_primary or str(exc)
    detail = exc.diag.message_detail
    text = f"{primary} ({detail})" if detail else primary
    return " ".join(text.split())
