from __future__ import annotations

from checkpoints.migrations import migrate, migration_files
from checkpoints.opening import Database
from nodes.domain import load_domain

APP_TABLES = {"audit_events", "idempotency_ledger", "token_ledger", "approvals"}


async def test_migrations_create_app_tables_and_are_idempotent(db: Database) -> None:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        )
        tables = {row["table_name"] for row in await cur.fetchall()}
        assert tables >= APP_TABLES | {"checkpoints", "store", "rolegraph_migrations"}
        assert await migrate(conn) == []
        cur = await conn.execute("SELECT count(*) AS n FROM rolegraph_migrations")
        row = await cur.fetchone()
        assert row is not None and row["n"] == len(migration_files((load_domain().migrations,)))


async def test_pool_connections_are_configured_for_langgraph(db: Database) -> None:
    async with db.pool.connection() as conn:
        assert conn.autocommit is True
        assert conn.prepare_threshold is None or conn.prepare_threshold == 0
        cur = await conn.execute("SELECT 1 AS one")
        assert await cur.fetchone() == {"one": 1}
