"""Fixtures for the outbox tests: the module's database with one customer, and a
clean outbox for every test (a test's leftovers must not be delivered by the next)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from checkpoints.opening import Database
from tests.integration.outbox.outbox_rows import add_user, settle_all
from tests.support_fixtures import retail_db, support

__all__ = ["retail_db", "support"]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def module_db(db: Database) -> Database:
    await add_user(db)
    return db


@pytest_asyncio.fixture(loop_scope="module")
async def outbox_db(module_db: Database) -> AsyncIterator[Database]:
    """The module's database; rows left unsent by the test are settled afterwards."""
    yield module_db
    await settle_all(module_db)
