"""The library's long-term memory (issue 9 §5): a member who asked to be e-mailed
after every change gets the e-mail after a later renewal, on another thread;
another member does not."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from checkpoints.opening import Database
from domains.library.pack import DOMAIN as LIBRARY
from graphs.api import compile_support, run_request
from nodes.bootstrap import build_support_context
from nodes.memory.store import entries
from tests.support_fixtures import Support


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def desk(library_db: Database) -> AsyncIterator[Support]:
    ctx = await build_support_context(library_db.pool, env={}, domain=LIBRARY)
    graph = compile_support(ctx, library_db.checkpointer, library_db.store)
    yield Support(db=library_db, ctx=ctx, graph=graph)


def _skills(report: object) -> list[str]:
    return [t["skill"] for t in report.plan]  # type: ignore[attr-defined]


async def test_email_preference_adds_the_notice_to_a_later_renewal(desk: Support) -> None:
    said = await run_request(
        desk.graph, desk.ctx,
        text="From now on, always e-mail me after a change to my loans.", user_id="M-1004",
    )  # fmt: skip
    assert "Noted: from now on we e-mail you after a change to your loans." in said.answer
    assert [(e.key, e.value) for e in await entries(desk.db.store, "M-1004")] == [
        ("email_updates", "yes")
    ]
    renewed = await run_request(desk.graph, desk.ctx, text="renew LN-20007", user_id="M-1004")
    assert renewed.status == "completed", renewed.answer
    assert _skills(renewed)[-1] == "send_notification_v1"
    assert "is queued for delivery" in renewed.answer

    theirs = await run_request(desk.graph, desk.ctx, text="renew LN-20008", user_id="M-1005")
    assert theirs.status == "completed", theirs.answer
    assert "send_notification_v1" not in _skills(theirs)
    assert await entries(desk.db.store, "M-1005") == []


async def test_a_pickup_branch_is_remembered_and_acknowledged(desk: Support) -> None:
    said = await run_request(
        desk.graph, desk.ctx, text="I always pick up books at the Central branch", user_id="M-1003"
    )
    assert (said.status, said.answer) == (
        "completed",
        "Noted: you pick up books at the Central branch.",
    )
    assert [(e.key, e.value) for e in await entries(desk.db.store, "M-1003")] == [
        ("pickup_branch", "central")
    ]
