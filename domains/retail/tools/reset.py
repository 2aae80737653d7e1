"""Put a database back to its initial documents: after a replay task, or after
a scripted conversation (`restore_point`, the pack's `DomainSeed.restore_point`).

Only the documents a task changed are rewritten, with the data layer's exact
writers, and then read back and compared, so a reset that did not restore
the initial state fails loudly instead of leaking into the next task.
"""

from __future__ import annotations

from typing import Any

from checkpoints.errors import RolegraphError
from checkpoints.opening import Pool
from domains.retail.storage import reads, writes
from domains.retail.storage.canonical import export_canonical
from domains.retail.storage.records import JsonDict
from nodes.domain import Restore


class ResetFailed(RolegraphError):
    """A replay database could not be put back to its initial state."""


async def reset_documents(conn: Any, initial: JsonDict, current: JsonDict) -> tuple[str, ...]:
    """Rewrite every order and user of `current` that differs from `initial`; their ids."""
    if current["products"] != initial["products"] or set(current["orders"]) != set(
        initial["orders"]
    ):
        raise ResetFailed("a task changed products or the set of orders; rerun with fresh copies")
    orders = _changed(initial["orders"], current["orders"])
    users = _changed(initial["users"], current["users"])
    async with conn.transaction():
        for order_id in orders:
            await writes.store_order(conn, initial["orders"][order_id])
        for user_id in users:
            await writes.store_user(conn, initial["users"][user_id])
    for order_id in orders:
        _check(await reads.fetch_order(conn, order_id), initial["orders"][order_id], order_id)
    for user_id in users:
        _check(await reads.fetch_user(conn, user_id), initial["users"][user_id], user_id)
    return (*orders, *users)


async def restore_point(pool: Pool) -> Restore:
    """The data as it is now; calling the result rewrites every order and account
    changed since and returns their ids (orders first)."""
    async with pool.connection() as conn:
        initial = await export_canonical(conn)

    async def restore() -> tuple[str, ...]:
        async with pool.connection() as conn:
            return await reset_documents(conn, initial, await export_canonical(conn))

    return restore


def _changed(initial: dict[str, Any], current: dict[str, Any]) -> list[str]:
    return sorted(key for key, doc in current.items() if initial.get(key) != doc)


def _check(stored: JsonDict | None, wanted: JsonDict, key: str) -> None:
    if stored != wanted:
        raise ResetFailed(f"{key} did not return to its initial state; rerun with fresh copies")
