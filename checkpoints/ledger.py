"""The idempotency ledger: one row per side-effecting call, keyed by
(run, task, skill, args hash).

Claiming is a single `INSERT ... ON CONFLICT DO NOTHING`, so of two callers
racing on one key, in one process or two, exactly one owns the run; the
other reads the row and waits for or replays its result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

import psycopg
from psycopg.rows import DictRow
from psycopg.types.json import Jsonb

LedgerState = Literal["started", "succeeded", "failed", "unknown"]


@dataclass(frozen=True)
class LedgerEntry:
    """The recorded state of one key."""

    key: str
    state: LedgerState
    result: Any
    created_at: datetime
    lease_expired: bool = False
    transactional: bool = True


async def claim(
    conn: psycopg.AsyncConnection[DictRow],
    *,
    key: str,
    run_id: str,
    task_id: str,
    skill: str,
    args_hash: str,
    lease_seconds: float,
    transactional: bool = True,
) -> LedgerEntry | None:
    """Claim `key` for running, leased for `lease_seconds`. `None` means this
    caller now owns it; otherwise the entry somebody else recorded is returned."""
    cur = await conn.execute(
        "INSERT INTO idempotency_ledger"
        " (key, run_id, task_id, skill, args_hash, state, lease_until, transactional)"
        " VALUES (%s, %s, %s, %s, %s, 'started', now() + make_interval(secs => %s), %s)"
        " ON CONFLICT (key) DO NOTHING RETURNING key",
        (key, run_id, task_id, skill, args_hash, lease_seconds, transactional),
    )
    if await cur.fetchone() is not None:
        return None
    # A failed attempt changed nothing durable, so it may run again; the
    # conditional UPDATE lets only one of several retrying callers take it.
    cur = await conn.execute(
        "UPDATE idempotency_ledger SET state = 'started', result = NULL,"
        " created_at = now(), completed_at = NULL,"
        " lease_until = now() + make_interval(secs => %s)"
        " WHERE key = %s AND state = 'failed' RETURNING key",
        (lease_seconds, key),
    )
    if await cur.fetchone() is not None:
        return None
    return await get_entry(conn, key)


async def get_entry(
    conn: psycopg.AsyncConnection[DictRow], key: str, *, for_update: bool = False
) -> LedgerEntry | None:
    """The entry for `key`, if any; `for_update` locks its row in the caller's transaction."""
    cur = await conn.execute(
        "SELECT key, state, result, created_at, transactional,"
        " coalesce(lease_until < now(), true) AS lease_expired"
        " FROM idempotency_ledger WHERE key = %s" + (" FOR UPDATE" if for_update else ""),
        (key,),
    )
    row = await cur.fetchone()
    if row is None:
        return None
    return LedgerEntry(
        row["key"],
        row["state"],
        row["result"],
        row["created_at"],
        lease_expired=row["lease_expired"],
        transactional=row["transactional"],
    )


async def take_over(conn: psycopg.AsyncConnection[DictRow], key: str, lease_seconds: float) -> bool:
    """Take a `started` claim whose lease ran out (its owner died); True if taken.

    Only one of several callers racing here wins: the UPDATE re-checks the
    lease under the row lock.
    """
    cur = await conn.execute(
        "UPDATE idempotency_ledger SET lease_until = now() + make_interval(secs => %s)"
        " WHERE key = %s AND state = 'started' AND coalesce(lease_until < now(), true)"
        " RETURNING key",
        (lease_seconds, key),
    )
    return await cur.fetchone() is not None


async def finish(
    conn: psycopg.AsyncConnection[DictRow], key: str, state: LedgerState, result: Any
) -> None:
    """Record the outcome of a claimed key that is still `started`.

    A database write calls this inside its own transaction, so the change
    and its completion commit together; the ledger link's later call then
    finds the row done and changes nothing.
    """
    await conn.execute(
        "UPDATE idempotency_ledger SET state = %s, result = %s, completed_at = now()"
        " WHERE key = %s AND state = 'started'",
        (state, Jsonb(result, dumps=_dumps), key),
    )


async def forget_outcome(conn: psycopg.AsyncConnection[DictRow], key: str) -> None:
    """Mark a completed effect as undone (compensated): its key may run again."""
    await conn.execute(
        "UPDATE idempotency_ledger SET state = 'failed', result = %s, completed_at = now()"
        " WHERE key = %s",
        (Jsonb({"compensated": True}), key),
    )


def _dumps(value: Any) -> str:
    # Payloads are meant to be JSON already; a stray datetime or Decimal is
    # stored as text rather than losing the record of a completed effect.
    return json.dumps(value, default=str)
