"""Long-term memory over the project's AsyncPostgresStore (issue 9 §5), domain-free."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from checkpoints.opening import Database
from nodes.memory.facts import DEFAULT_HALF_LIFE, Fact, winners
from nodes.memory.store import entries, forget, namespace, remember

pytestmark = pytest.mark.asyncio(loop_scope="module")
T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
HOUR = timedelta(hours=1)


async def test_duplicates_merge_into_one_entry(db: Database) -> None:
    fact = Fact("refund", "gift", 0.9)
    await remember(db.store, db.pool, "dup-user", [fact], T0)
    await remember(db.store, db.pool, "dup-user", [fact], T0 + HOUR)
    [entry] = await entries(db.store, "dup-user")
    assert (entry.value, entry.count, entry.version) == ("gift", 2, 2)
    assert (entry.first_seen, entry.last_seen) == (T0, T0 + HOUR)


async def test_contradiction_is_kept_beside_and_the_newer_wins(db: Database) -> None:
    await remember(db.store, db.pool, "contra", [Fact("refund", "gift", 0.9)], T0)
    await remember(db.store, db.pool, "contra", [Fact("refund", "paypal", 0.9)], T0 + HOUR)
    stored = await entries(db.store, "contra")
    assert {(e.value, e.last_seen) for e in stored} == {("gift", T0), ("paypal", T0 + HOUR)}
    [winner] = winners(stored, {"refund": 1.0}, T0 + 2 * HOUR, DEFAULT_HALF_LIFE)
    assert winner.value == "paypal"
    # Stated again later, the older value wins again; nothing was deleted.
    await remember(db.store, db.pool, "contra", [Fact("refund", "gift", 0.9)], T0 + 3 * HOUR)
    stored = await entries(db.store, "contra")
    assert len(stored) == 2
    assert winners(stored, {"refund": 1.0}, T0 + 4 * HOUR, DEFAULT_HALF_LIFE)[0].value == "gift"


async def test_recall_ranks_by_relevance_and_decay(db: Database) -> None:
    await remember(db.store, db.pool, "rank", [Fact("old", "x", 0.9)], T0)
    await remember(db.store, db.pool, "rank", [Fact("new", "y", 0.9)], T0 + 48 * HOUR)
    stored = await entries(db.store, "rank")
    now = T0 + 48 * HOUR
    same = winners(stored, {"old": 1.0, "new": 1.0}, now, DEFAULT_HALF_LIFE)
    assert [e.key for e in same] == ["new", "old"]
    assert same[1].score == pytest.approx(0.25)  # two half-lives old
    # Relevance outweighs age: the old fact matters to this request, the new barely.
    relevant = winners(stored, {"old": 1.0, "new": 0.1}, now, DEFAULT_HALF_LIFE)
    assert [e.key for e in relevant] == ["old", "new"]
    # A shorter half-life decays the old fact below the barely relevant new one.
    short = winners(stored, {"old": 1.0, "new": 0.1}, now, timedelta(hours=6))
    assert [e.key for e in short] == ["new", "old"]


async def test_concurrent_writers_lose_no_update(db: Database) -> None:
    fact = Fact("refund", "gift", 0.9)
    writers = [remember(db.store, db.pool, "race", [fact], T0 + n * HOUR) for n in range(12)]
    await asyncio.gather(*writers)
    [entry] = await entries(db.store, "race")
    assert (entry.count, entry.version) == (12, 12)
    assert entry.last_seen == T0 + 11 * HOUR


async def test_customers_never_share_memory(db: Database) -> None:
    await remember(db.store, db.pool, "alice", [Fact("refund", "gift", 0.9)], T0)
    assert await entries(db.store, "bob") == []
    assert [e.value for e in await entries(db.store, "alice")] == ["gift"]
    assert await db.store.aget(namespace("bob"), "refund") is None


async def test_forget_by_key_and_all(db: Database) -> None:
    facts = [Fact("refund", "gift", 0.9), Fact("lang", "zh", 0.9)]
    await remember(db.store, db.pool, "forgetful", facts, T0)
    await remember(db.store, db.pool, "keeper", facts, T0)
    assert await forget(db.store, db.pool, "forgetful", "lang") == 1
    assert [e.key for e in await entries(db.store, "forgetful")] == ["refund"]
    assert await forget(db.store, db.pool, "forgetful") == 1
    assert await entries(db.store, "forgetful") == []
    assert len(await entries(db.store, "keeper")) == 2
