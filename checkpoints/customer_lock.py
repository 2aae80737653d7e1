"""A per-customer write lock for read-modify-write updates of their long-term memory.

LangGraph's store has no compare-and-set, so writers of one customer's memory
take this Postgres session advisory lock first; it sits on a connection of the
lock pool (`checkpoints.threads.lock_session`), so waiting writers never starve
the store's pool.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from checkpoints.opening import Pool
from checkpoints.threads import lock_session, lock_slots


@asynccontextmanager
async def customer_lock(pool: Pool, scope: str, user_id: str) -> AsyncIterator[None]:
    """Hold (`scope`, `user_id`)'s lock for the block, waiting for other holders."""
    async with lock_slots(pool, "customer"), lock_session(pool) as conn:
        await conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (f"{scope}:{user_id}",))
        yield  # lock_session releases it
