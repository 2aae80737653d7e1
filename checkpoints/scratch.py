"""Scratch databases on the same server: created for a job, always dropped after it.

Replays and benchmarks run on their own copies (`CREATE DATABASE ... TEMPLATE`)
so they never touch the project's database.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import psycopg
from psycopg import sql

from checkpoints.database import DatabaseTarget, with_database


@asynccontextmanager
async def scratch_database(
    server: DatabaseTarget, prefix: str, *, template: str | None = None
) -> AsyncIterator[DatabaseTarget]:
    """A new empty database (or a copy of `template`) named `<prefix>_<random>`, dropped after."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    create = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template is not None:
        create = sql.SQL("{} TEMPLATE {}").format(create, sql.Identifier(template))
    await _admin(server, create)
    try:
        yield database_on(server, name)
    finally:
        drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        await _admin(server, drop)


def database_on(server: DatabaseTarget, name: str) -> DatabaseTarget:
    """The database `name` on `server`."""
    return DatabaseTarget(
        url=with_database(server.url, name), kind=server.kind, location=f"{server.location}/{name}"
    )


def database_name(target: DatabaseTarget) -> str:
    """The database a target points at (its URL path)."""
    return urlsplit(target.url).path.lstrip("/")


async def _admin(server: DatabaseTarget, statement: sql.Composed) -> None:
    conn = await psycopg.AsyncConnection.connect(server.url, autocommit=True)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()
