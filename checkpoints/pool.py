"""The async connection pool, configured the way LangGraph's Postgres saver needs."""

from __future__ import annotations

import psycopg
from psycopg.rows import DictRow, dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from checkpoints.database import DatabaseTarget
from checkpoints.errors import DatabaseUnavailable

# AsyncPostgresSaver runs every statement outside explicit transactions and
# reads rows as dicts; prepared statements break behind pgbouncer-style
# proxies, so they are off.
CONNECTION_KWARGS = {"autocommit": True, "row_factory": dict_row, "prepare_threshold": 0}
CONNECT_TIMEOUT_S = 5


async def open_pool(
    target: DatabaseTarget, *, min_size: int = 1, max_size: int = 8
) -> AsyncConnectionPool[psycopg.AsyncConnection[DictRow]]:
    """Open a pool whose connections are health-checked before each use.

    `check_connection` runs a cheap round trip when a connection is handed
    out, so one the server dropped while idle is replaced, not surfaced.
    """
    await probe(target)
    pool: AsyncConnectionPool[psycopg.AsyncConnection[DictRow]] = AsyncConnectionPool(
        target.url,
        min_size=min_size,
        max_size=max_size,
        kwargs=dict(CONNECTION_KWARGS),
        check=AsyncConnectionPool.check_connection,
        max_idle=300,
        open=False,
    )
    try:
        await pool.open(wait=True, timeout=CONNECT_TIMEOUT_S * 2)
    except PoolTimeout as exc:
        await pool.close()
        raise _unavailable(target, str(exc)) from exc
    return pool


async def probe(target: DatabaseTarget) -> None:
    """Connect once so an unreachable server fails with a clear message."""
    try:
        conn = await psycopg.AsyncConnection.connect(
            target.url, connect_timeout=CONNECT_TIMEOUT_S, autocommit=True
        )
    except psycopg.Error as exc:
        raise _unavailable(target, str(exc)) from exc
    await conn.close()


def _unavailable(target: DatabaseTarget, detail: str) -> DatabaseUnavailable:
    first_line = detail.strip().splitlines()[0] if detail.strip() else "no detail"
    if target.kind == "external":
        hint = (
            "check the server is up and the URL is right, "
            "or unset DATABASE_URL for the embedded one"
        )
    else:
        hint = "remove the stale data directory's postmaster.pid or run `make clean`"
    return DatabaseUnavailable(f"cannot connect to {target.location}: {first_line}; {hint}")
