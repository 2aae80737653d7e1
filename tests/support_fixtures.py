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
from graphs.api import RunReport, compile_support, run_request
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


async def say(support: Support, user: str, text: str, thread_id: str | None = None) -> RunReport:
    """One customer turn on the support graph: a new thread, or `thread_id`."""
    return await run_request(
        support.graph, support.ctx, text=text, user_id=user, thread_id=thread_id
    )


async def run_confirmed(graph: Any, ctx: SupportContext, **request: Any) -> RunReport:
    """One request as a customer makes it: the turn, then "yes" on the same thread when
    the turn asks them to confirm a change (issue 9 §3). Tests of the confirmation itself
    (tests/integration/graph/test_confirm_and_clarify.py) do not use this."""
    first: RunReport = await run_request(graph, ctx, **request)
    if first.status != "needs_input" or not first.question or first.question["kind"] != "confirm":
        return first
    request = {**request, "text": "yes", "thread_id": first.thread_id}
    return await run_request(graph, ctx, **request)
