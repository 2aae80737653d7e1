"""The orders (and their customers) the benchmarks ask about: the first ones of
the reference data, loaded if the database has none yet."""

from __future__ import annotations

from checkpoints.opening import Database
from domains.retail.storage.seed import ensure_reference_data


async def orders(db: Database, count: int) -> list[tuple[str, str]]:
    """(order id, user id) of the first `count` orders, in id order."""
    async with db.pool.connection() as conn:
        await ensure_reference_data(conn)
        cur = await conn.execute(
            "SELECT order_id, user_id FROM orders ORDER BY order_id LIMIT %s", (count,)
        )
        found = [(r["order_id"], r["user_id"]) for r in await cur.fetchall()]
    if len(found) < count:
        raise SystemExit(f"the reference data has {len(found)} orders; {count} are needed")
    return found
