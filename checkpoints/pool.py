"""The async connection pool, configured the way LangGraph's Postgres saver needs."""

from __future__ import annotations

import select

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.rows import DictRow, dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from checkpoints.database import DatabaseTarget
from checkpoints.errors import DatabaseUnavailable
from checkpoints.settings import PoolSettings

# AsyncPostgresSaver runs every statement outside explicit transactions and
# reads rows as dicts. Prepared statements break behind pgbouncer-style
# proxies (a statement prepared on one server connection is missing on the
# next), so none are prepared: psycopg prepares after `prepare_threshold`
# executions, and None means never (0 would mean at once).
CONNECTION_KWARGS = {"autocommit": True, "row_factory": dict_row, "prepare_threshold": None}
CONNECT_TIMEOUT_S = 5
MAX_LOCK_CONNECTIONS = 32
"""Lock connections one process holds at once per kind (thread locks, customer locks):
more turns wait for a slot instead of pushing the server past its connection limit
(the embedded server's is 100, shared with the pool and other processes)."""
LOCK_KINDS = 2
LOCK_IDLE_S = 60
"""An idle lock connection is closed after this long: a burst of turns leaves no
connections held that other processes may need."""


class LockingPool(AsyncConnectionPool[psycopg.AsyncConnection[DictRow]]):
    """The process's pool, and beside it `locks`, a pool of its own for Postgres session
    advisory locks (`checkpoints.threads`): a lock held for minutes (a turn waiting on
    a model) never takes a connection from the saver and the store, and taking one is
    a checkout, not a new server process (a fresh connection cost about 5 ms, and a
    request takes two locks). Closing the pool closes both."""

    locks: AsyncConnectionPool[psycopg.AsyncConnection[DictRow]] | None = None

    async def close(self, timeout: float = 5.0) -> None:  # noqa: ASYNC109 - the parent's signature
        try:
            if self.locks is not None:
                await self.locks.close(timeout)
        finally:
            await super().close(timeout)


async def open_pool(
    target: DatabaseTarget, *, min_size: int = 1, settings: PoolSettings | None = None
) -> AsyncConnectionPool[psycopg.AsyncConnection[DictRow]]:
    """Open a pool whose connections are health-checked before each use
    (`check_idle_connection`), so one the server dropped while idle is replaced,
    not surfaced. A caller waits at most `settings.timeout_s` for a connection,
    then gets `PoolTimeout`.
    """
    settings = settings or PoolSettings()
    await probe(target)
    pool = LockingPool(
        target.url,
        min_size=min(min_size, settings.size),
        max_size=settings.size,
        kwargs={**CONNECTION_KWARGS, "connect_timeout": CONNECT_TIMEOUT_S},
        check=check_idle_connection,
        timeout=settings.timeout_s,
        reconnect_timeout=settings.timeout_s * 3,
        max_idle=300,
        open=False,
    )
    try:
        await pool.open(wait=True, timeout=CONNECT_TIMEOUT_S * 2)
    except PoolTimeout as exc:
        await pool.close()
        raise _unavailable(target, str(exc)) from exc
    pool.locks = AsyncConnectionPool(
        target.url,
        min_size=0,
        max_size=MAX_LOCK_CONNECTIONS * LOCK_KINDS,
        kwargs={**CONNECTION_KWARGS, "connect_timeout": CONNECT_TIMEOUT_S},
        check=check_idle_connection,
        timeout=settings.timeout_s,
        max_idle=LOCK_IDLE_S,
        open=False,
    )
    await pool.locks.open()  # no connection until a lock is taken
    return pool


async def check_idle_connection(conn: psycopg.AsyncConnection[DictRow]) -> None:
    """Raise if a connection handed out of the pool is dead; free when it is not.

    A server that drops a connection (a restart, an idle timeout,
    `pg_terminate_backend`) sends its FATAL notice and closes the socket, so
    the idle socket turns readable; an idle, healthy one has nothing to read
    (these connections never LISTEN). Only then is the round trip of
    `check_connection` paid — which fails, and the pool replaces the
    connection. Checking every checkout with a round trip cost a tenth of a
    request's time.
    """
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    readable, _, _ = select.select([conn.fileno()], [], [], 0)
    if readable or conn.info.transaction_status != TransactionStatus.IDLE:
        await AsyncConnectionPool.check_connection(conn)


async def probe(target: DatabaseTarget) -> None:
    """Connect once so an unreachable server fails with a clear message."""
    try:
        conn = await psycopg.AsyncConnection.connect(
            target.url, connect_timeout=CONNECT_TIMEOUT_S, autocommit=True
        )
    except psycopg.Error as exc:
        raise _unavailable(target, str(exc)) from exc
    await conn.close()


def database_fault(exc: psycopg.Error) -> DatabaseUnavailable:
    """One line for a connection that failed mid-command (timeout, terminated, restarted)."""
    if isinstance(exc, PoolTimeout):
        return DatabaseUnavailable(
            "no database connection became free in time; retry, or raise "
            "ROLEGRAPH_POOL_SIZE or ROLEGRAPH_POOL_TIMEOUT"
        )
    detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return DatabaseUnavailable(
        f"lost the database connection ({detail}); every thread keeps its last checkpoint: "
        "continue it with `rolegraph resume THREAD_ID` (see `rolegraph threads list`)"
    )


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
