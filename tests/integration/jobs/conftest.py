"""Fixtures for the job-queue tests: reference data, the queue over the module's database."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from procrastinate import App

from checkpoints.jobs import open_queue
from tests.support_fixtures import Support, retail_db, support

__all__ = ["retail_db", "support"]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def queue(support: Support) -> AsyncIterator[App]:
    """The queue as a submitter opens it (no tasks registered)."""
    async with open_queue(support.db.pool) as app:
        yield app
