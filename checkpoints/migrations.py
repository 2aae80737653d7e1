"""Idempotent, ordered SQL migrations for rolegraph's own tables.

Each file in `checkpoints/sql/` is applied once, in name order, and recorded
in `rolegraph_migrations`. An advisory lock makes concurrent start-ups wait
for each other instead of racing on DDL.
"""

from __future__ import annotations

from importlib import resources

import psycopg
from psycopg.rows import DictRow

_LOCK_KEY = 0x726F6C65  # "role"


def migration_files() -> list[tuple[str, str]]:
    """(name, sql) for every migration, in the order they apply."""
    folder = resources.files("checkpoints") / "sql"
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".sql")), key=lambda f: f.name)
    return [(f.name.removesuffix(".sql"), f.read_text(encoding="utf-8")) for f in files]


async def migrate(conn: psycopg.AsyncConnection[DictRow]) -> list[str]:
    """Apply pending migrations; return the names applied now."""
    applied_now: list[str] = []
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS rolegraph_migrations ("
            " name text PRIMARY KEY,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        cur = await conn.execute("SELECT name FROM rolegraph_migrations")
        done = {row["name"] for row in await cur.fetchall()}
        for name, sql in migration_files():
            if name in done:
                continue
            await conn.execute(sql.encode(), prepare=False)
            await conn.execute("INSERT INTO rolegraph_migrations (name) VALUES (%s)", (name,))
            applied_now.append(name)
    return applied_now
