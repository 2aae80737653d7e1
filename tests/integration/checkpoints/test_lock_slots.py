"""Lock connections are bounded per process: more turns than slots wait, none fails."""

from __future__ import annotations

import asyncio

from checkpoints.opening import Database
from checkpoints.pool import MAX_LOCK_CONNECTIONS
from checkpoints.threads import lock_slots, thread_lock


async def test_more_thread_locks_than_slots_all_run_never_over_the_bound(db: Database) -> None:
    holding = 0
    most = 0
    release = asyncio.Event()

    async def turn(n: int) -> int:
        nonlocal holding, most
        async with thread_lock(db.pool, f"thr-slots-{n}"):
            holding += 1
            most = max(most, holding)
            if holding == MAX_LOCK_CONNECTIONS:
                release.set()  # every slot is taken: the rest must be waiting
            await release.wait()
            holding -= 1
        return n

    wanted = MAX_LOCK_CONNECTIONS + 8
    done = await asyncio.gather(*(turn(n) for n in range(wanted)))
    assert sorted(done) == list(range(wanted))
    assert most == MAX_LOCK_CONNECTIONS


def test_slots_are_per_pool_and_per_kind() -> None:
    class FakePool:
        """Stands in for a pool object: only its identity matters here."""

    one, other = FakePool(), FakePool()
    thread_slots = lock_slots(one, "thread")  # type: ignore[arg-type]
    assert lock_slots(one, "thread") is thread_slots  # type: ignore[arg-type]
    assert lock_slots(one, "customer") is not thread_slots  # type: ignore[arg-type]
    assert lock_slots(other, "thread") is not thread_slots  # type: ignore[arg-type]
