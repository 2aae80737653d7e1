"""Row counts of the retail tables (for `rolegraph db status`)."""

from __future__ import annotations

import psycopg
from psycopg.rows import DictRow

from domains.retail.storage.tables import RETAIL_TABLES


async def table_counts(conn: psycopg.AsyncConnection[DictRow]) -> dict[str, int]:
    """Exact row count of every retail table, in foreign-key order."""
    selects = " UNION ALL ".join(
        f"SELECT '{table}' AS name, count(*) AS n FROM {table}" for table in RETAIL_TABLES
    )
    cur = await conn.execute(selects)
    counts = {row["name"]: int(row["n"]) for row in await cur.fetchall()}
    return {table: counts[table] for table in RETAIL_TABLES}


async def has_customers(conn: psycopg.AsyncConnection[DictRow]) -> bool:
    """Whether any customer is loaded (an empty database needs `rolegraph data generate`)."""
    cur = await conn.execute("SELECT EXISTS (SELECT 1 FROM users) AS any")
    row = await cur.fetchone()
    return bool(row and row["any"])
