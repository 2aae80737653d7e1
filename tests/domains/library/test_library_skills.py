"""The library executors on real Postgres: ownership, renewal rules, the
ledger-backed idempotency of a high-risk write, the outbox, policy search."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date
from typing import Any

import pytest
import pytest_asyncio

from checkpoints import ledger, outbox
from checkpoints.opening import Database
from domains.library.pack import DOMAIN as LIBRARY
from domains.library.storage import seed, store
from skills.context import RuntimeContext
from skills.errors import DomainError, OwnershipError
from skills.registry import SkillRegistry, load_catalog


@pytest.fixture(scope="module")
def registry() -> SkillRegistry:
    return load_catalog(LIBRARY.catalog)


@pytest_asyncio.fixture(autouse=True, loop_scope="module")
async def _fresh_data(library_db: Database) -> AsyncIterator[None]:
    # Writes below change loans; every test starts from the shipped data set.
    async with library_db.pool.connection() as conn:
        await seed.load(conn)
    yield


async def _run(
    registry: SkillRegistry, db: Database, skill: str, args: dict[str, Any], **ctx: Any
) -> Any:
    executor = registry.get(skill).executor
    context = RuntimeContext(pool=db.pool, **ctx)
    return await executor.execute(executor.validate_input(args), context)


async def test_a_member_reads_their_loans_and_is_refused_anothers(
    registry: SkillRegistry, library_db: Database
) -> None:
    own = await _run(
        registry, library_db, "get_member_loans_v1", {"member_id": "M-1001"}, user_id="M-1001"
    )
    assert [loan["loan_id"] for loan in own["loans"]] == ["LN-20002", "LN-20001"]
    assert own["fines_cents"] == 350
    with pytest.raises(OwnershipError):
        await _run(
            registry, library_db, "get_member_loans_v1", {"member_id": "M-1002"}, user_id="M-1001"
        )
    operator = await _run(registry, library_db, "get_member_loans_v1", {"member_id": "M-1002"})
    assert operator["member_id"] == "M-1002"


async def test_renewal_moves_the_due_date_two_weeks_and_counts(
    registry: SkillRegistry, library_db: Database
) -> None:
    renewed = await _run(
        registry, library_db, "renew_loan_v1", {"loan_id": "LN-20001"}, user_id="M-1001"
    )
    assert (renewed["due_on"], renewed["renewals"]) == ("2026-12-07", 1)
    async with library_db.pool.connection() as conn:
        stored = await store.loan(conn, "LN-20001")
    assert stored is not None and stored.due_on == date(2026, 12, 7) and stored.renewals == 1


@pytest.mark.parametrize(
    ("loan_id", "member", "words"),
    [("LN-20002", "M-1001", "holds this book"), ("LN-20005", "M-1003", "renewed 2 times")],
)
async def test_a_held_or_twice_renewed_loan_is_refused_and_unchanged(
    registry: SkillRegistry, library_db: Database, loan_id: str, member: str, words: str
) -> None:
    async with library_db.pool.connection() as conn:
        before = await store.loan(conn, loan_id)
    with pytest.raises(DomainError, match=words):
        await _run(registry, library_db, "renew_loan_v1", {"loan_id": loan_id}, user_id=member)
    async with library_db.pool.connection() as conn:
        assert await store.loan(conn, loan_id) == before


async def test_a_waiver_applies_once_per_idempotency_key(
    registry: SkillRegistry, library_db: Database
) -> None:
    key = "test:waive:LN-20002"
    async with library_db.pool.connection() as conn:
        await ledger.claim(conn, key=key, run_id="r", task_id="t", skill="waive_fine_v1",
                           args_hash="h", lease_seconds=30)  # fmt: skip
    args = {"loan_id": "LN-20002", "reason": "first offence"}
    first = await _run(
        registry, library_db, "waive_fine_v1", args, user_id="M-1001", idempotency_key=key
    )
    assert first["fine_cents"] == 0 and first["fine_waived"] is True
    # The retry of a step whose COMMIT reply was lost replays the record; it
    # does not run the waiver again (which would now fail: no fine left).
    again = await _run(
        registry, library_db, "waive_fine_v1", args, user_id="M-1001", idempotency_key=key
    )
    assert again == first
    with pytest.raises(DomainError, match="no fine"):
        await _run(registry, library_db, "waive_fine_v1", args, user_id="M-1001")


async def test_a_notification_is_queued_once_in_the_harness_outbox(
    registry: SkillRegistry, library_db: Database
) -> None:
    args = {"member_id": "M-1002", "subject": "续借成功", "body": "您的借阅已续借。"}
    first = await _run(registry, library_db, "send_notification_v1", args, user_id="M-1002")
    second = await _run(registry, library_db, "send_notification_v1", args, user_id="M-1002")
    assert first["notification_id"] == second["notification_id"]
    assert (first["recipient"], first["status"]) == ("l***@example.org", "queued")
    async with library_db.pool.connection() as conn:
        row = await outbox.get(conn, first["notification_id"])
    assert row is not None and row.recipient == "liang.wei@example.org" and row.user_id == "M-1002"
    assert (
        registry.get("send_notification_v1").executor.risk_for(
            args, RuntimeContext(pool=None, user_id="M-1001")
        )
        == "forbidden"
    )


@pytest.mark.parametrize(
    ("query", "slug_lang"),
    [("How many times can I renew a loan?", "en"), ("可以续借几次？", "zh")],
)
async def test_the_loan_policy_answers_in_the_question_language(
    registry: SkillRegistry, library_db: Database, query: str, slug_lang: str
) -> None:
    found = await _run(registry, library_db, "search_policy_v1", {"query": query})
    best = found["results"][0]
    assert best["partition"] == "loan_policy" and best["lang"] == slug_lang
    assert "14" in best["snippet"]
