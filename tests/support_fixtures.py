"""Fixtures for tests that run the support graph on generated reference data.

Import them in a conftest.py: `from tests.support_fixtures import retail_db, support`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest_asyncio

from checkpoints.opening import Database
from domains.retail.storage.generator import generate_reference
from graphs.api import compile_support
from nodes.bootstrap import build_support_context
from nodes.context import SupportContext


@dataclass(frozen=True)
class Support:
    db: Database
    ctx: SupportContext
    graph: Any


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def retail_db(db: Database) -> AsyncIterator[Database]:
    """The module's database holding the seeded reference data."""
    async with db.pool.connection() as conn:
        await generate_reference(conn)
    yield db


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def support(retail_db: Database) -> AsyncIterator[Support]:
    """The compiled support graph over the module's database, rules tier only."""
    ctx = await build_support_context(retail_db.pool, env={})
    yield Support(
        db=retail_db, ctx=ctx, graph=compile_support(ctx, retail_db.checkpointer, retail_db.store)
    )
