"""Idempotent, ordered SQL migrations: the harness's tables, then a domain's.

Each file of a source folder is applied once, in name order, and recorded in
`rolegraph_migrations` (harness files by name, a domain's as
`<domain>/<name>`). Harness migrations never refer to domain tables, so they
always run first. An advisory lock makes concurrent start-ups wait for each
other instead of racing on DDL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import psycopg
from psycopg.rows import DictRow

_LOCK_KEY = 0x726F6C65  # "role"


@dataclass(frozen=True)
class MigrationSource:
    """A folder of `*.sql` files; `namespace` prefixes their recorded names ("" for the harness)."""

    namespace: str
    folder: Path | Traversable

    def files(self) -> list[tuple[str, str]]:
        """(recorded name, sql) of every file, in the order they apply."""
        found = sorted(
            (f for f in self.folder.iterdir() if f.name.endswith(".sql")), key=lambda f: f.name
        )
        prefix = f"{self.namespace}/" if self.namespace else ""
        return [
            (prefix + f.name.removesuffix(".sql"), f.read_text(encoding="utf-8")) for f in found
        ]


HARNESS = MigrationSource("", resources.files("checkpoints") / "sql")


def migration_files(sources: Sequence[MigrationSource] = ()) -> list[tuple[str, str]]:
    """(name, sql) for the harness's migrations then each source's, in the order they apply."""
    return [entry for source in (HARNESS, *sources) for entry in source.files()]


async def migrate(
    conn: psycopg.AsyncConnection[DictRow], sources: Sequence[MigrationSource] = ()
) -> list[str]:
    """Apply pending migrations (the harness's, then `sources`); return the names applied now."""
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
        for name, sql in migration_files(sources):
            if name in done:
                continue
            await conn.execute(sql.encode(), prepare=False)
            await conn.execute("INSERT INTO rolegraph_migrations (name) VALUES (%s)", (name,))
            applied_now.append(name)
    return applied_now
