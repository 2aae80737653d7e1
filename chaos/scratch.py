"""Scratch databases: one template holding the reference data, one clone per case.

`CREATE DATABASE ... TEMPLATE` copies the template's files, so every case that
writes starts from the same clean data in well under a second.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from dataclasses import dataclass, field

import psycopg

from checkpoints.database import DatabaseTarget, resolve_database, with_database
from checkpoints.opening import open_database
from checkpoints.settings import DatabaseSettings
from domains.retail.storage.generator import generate_reference
from nodes.bootstrap import build_support_context
from nodes.domain import load_domain

PREFIX = "chaos_"


@dataclass
class Scratch:
    """The server the campaign runs on and the databases it made there."""

    server: DatabaseTarget
    run: str = field(default_factory=lambda: f"{os.getpid()}x{uuid.uuid4().hex[:4]}")
    made: list[str] = field(default_factory=list)
    template: str = ""

    @classmethod
    def open(cls) -> Scratch:
        """The configured server (DATABASE_URL or the embedded one), template prepared."""
        scratch = cls(resolve_database(DatabaseSettings.from_env()))
        scratch.drop_stale()
        scratch.template = scratch._name("tpl")
        scratch._execute(f'CREATE DATABASE "{scratch.template}"')
        scratch.made.append(scratch.template)
        asyncio.run(_seed(scratch.target(scratch.template)))
        return scratch

    def clone(self, label: str) -> DatabaseTarget:
        """A fresh copy of the reference data for one case."""
        name = self._name(label)
        self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
        self.made.append(name)
        return self.target(name)

    def target(self, name: str) -> DatabaseTarget:
        url = with_database(self.server.url, name)
        return DatabaseTarget(url=url, kind="external", location=name)

    def env(self, target: DatabaseTarget, **extra: str) -> dict[str, str]:
        """Environment of a CLI subprocess on `target`: rules tier, no SMTP, unbuffered."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(_CLEARED)}
        env |= {"DATABASE_URL": target.url, "PYTHONUNBUFFERED": "1"}
        return env | extra

    def drop(self, target: DatabaseTarget) -> None:
        self._execute(f'DROP DATABASE IF EXISTS "{target.location}" WITH (FORCE)')

    def close(self) -> None:
        for name in self.made:
            self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def drop_stale(self) -> None:
        """Databases a killed campaign left behind (its pid is gone); a live one's stay."""
        with psycopg.connect(self.server.url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s", (PREFIX + "%",)
            ).fetchall()
            for (name,) in rows:
                if not _alive(name):
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _name(self, label: str) -> str:
        return f"{PREFIX}{self.run}_{label}_{uuid.uuid4().hex[:6]}"[:63]

    def _execute(self, sql: str) -> None:
        with psycopg.connect(self.server.url, autocommit=True) as conn:
            conn.execute(sql)


# Models, SMTP and crash hooks are set per case, never inherited from the caller.
_CLEARED = ("ROLEGRAPH_MODEL_", "SMTP_", "ROLEGRAPH_CRASH_AT", "OPENAI_", "ROLEGRAPH_OPERATOR")


def _alive(name: str) -> bool:
    pid = name.removeprefix(PREFIX).split("x", 1)[0]
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except OSError:
        return False
    return True


async def _seed(target: DatabaseTarget) -> None:
    async with open_database(target=target, migrations=(load_domain().migrations,)) as db:
        async with db.pool.connection() as conn:
            await generate_reference(conn)
        await build_support_context(db.pool, env={})  # syncs the knowledge tables once
