"""The library pack's restore point: it names and puts back every changed row."""

from __future__ import annotations

from checkpoints.opening import Database
from domains.library.pack import DOMAIN
from domains.library.storage import store


async def test_a_restore_point_puts_back_what_changed_and_names_it(library_db: Database) -> None:
    assert DOMAIN.seed is not None
    async with library_db.pool.connection() as conn:
        before = await store.read_all(conn)
    restore = await DOMAIN.seed.restore_point(library_db.pool)
    async with library_db.pool.connection() as conn:
        await store.waive_fine(conn, "LN-20002")
        await conn.execute("DELETE FROM holds WHERE hold_id = 'H-0001'")

    assert await restore() == ("LN-20002", "H-0001")

    async with library_db.pool.connection() as conn:
        assert await store.read_all(conn) == before
    assert await restore() == ()
