"""Fixtures of the library-domain tests: a database migrated with the library's
own tables and loaded with the pack's data set, and CLI environments that
choose the library with `ROLEGRAPH_DOMAIN`."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from checkpoints.database import DatabaseTarget
from checkpoints.opening import Database, open_database
from domains.library.pack import DOMAIN as LIBRARY
from domains.library.storage import seed
from nodes.domain import Domain
from skills.knowledge.sync import sync_knowledge


@pytest.fixture(scope="session")
def library() -> Domain:
    return LIBRARY


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def library_db(fresh_target: DatabaseTarget) -> AsyncIterator[Database]:
    """The module's database: harness and library tables, the data set, the loan policy."""
    async with open_database(target=fresh_target, migrations=(LIBRARY.migrations,)) as database:
        async with database.pool.connection() as conn:
            await seed.load(conn)
            await sync_knowledge(conn, LIBRARY.knowledge)
        yield database


@pytest.fixture(scope="module")
def library_env(db_env: dict[str, str]) -> dict[str, str]:
    """Environment for `rolegraph` subprocesses on the module's database, library domain."""
    return {**db_env, "ROLEGRAPH_DOMAIN": "library"}
