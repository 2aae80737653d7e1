"""`ensure_reference_data` seeds an empty database and never overwrites data."""

from __future__ import annotations

from checkpoints.opening import Database
from domains.retail.storage.counts import table_counts
from domains.retail.storage.seed import ensure_reference_data


async def test_seeds_once_then_leaves_the_data_alone(db: Database) -> None:
    async with db.pool.connection() as conn:
        assert not any((await table_counts(conn)).values())
        loaded = await ensure_reference_data(conn)
        assert loaded is not None and loaded.orders == 1000
        # A changed database is someone's data now: it must survive.
        await conn.execute(
            "UPDATE orders SET status = 'cancelled', cancel_reason = 'no longer needed'"
            " WHERE order_id = (SELECT min(order_id) FROM orders WHERE status = 'pending')"
        )
        before = await table_counts(conn)
        cur = await conn.execute("SELECT count(*) AS n FROM orders WHERE status = 'cancelled'")
        cancelled = (await cur.fetchone() or {})["n"]

        assert await ensure_reference_data(conn) is None

        assert await table_counts(conn) == before
        cur = await conn.execute("SELECT count(*) AS n FROM orders WHERE status = 'cancelled'")
        assert (await cur.fetchone() or {})["n"] == cancelled
