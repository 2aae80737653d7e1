"""What `rolegraph db status` reports: where the database is, its version, tables."""

from __future__ import annotations

from dataclasses import dataclass

import psycopg
from psycopg import sql
from psycopg.rows import DictRow

from checkpoints.database import DatabaseTarget


@dataclass(frozen=True)
class DatabaseStatus:
    kind: str
    location: str
    server_version: str
    tables: dict[str, int]


async def database_status(
    conn: psycopg.AsyncConnection[DictRow], target: DatabaseTarget
) -> DatabaseStatus:
    """Exact row counts of every table in the public schema."""
    cur = await conn.execute("SELECT current_setting('server_version') AS v")
    row = await cur.fetchone()
    version = str(row["v"]) if row else "unknown"
    cur = await conn.execute(
        "SELECT table_name FROM information_schema.tables"
        " WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
    )
    names = [r["table_name"] for r in await cur.fetchall()]
    counts: dict[str, int] = {}
    for name in names:
        cur = await conn.execute(
            sql.SQL("SELECT count(*) AS n FROM {}").format(sql.Identifier(name))
        )
        counted = await cur.fetchone()
        counts[name] = int(counted["n"]) if counted else 0
    return DatabaseStatus(target.kind, target.location, version, counts)
