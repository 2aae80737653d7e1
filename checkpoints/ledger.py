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

LedgerState = Literal["started", "succeeded", "failed"]


@dataclass(frozen=True)
class LedgerEntry:
    """The recorded state of one key."""

    key: str
    state: LedgerState
    result: Any
    created_at: datetime


async def claim(
    conn: psycopg.AsyncConnection[DictRow],
    *,
    key: str,
    run_id: str,
    task_id: str,
    skill: str,
    args_hash: str,
) -> LedgerEntry | None:
    """Claim `key` for running. `None` means this caller now owns it;
    otherwise the entry somebody else recorded is returned."""
    cur = await conn.execute(
        "INSERT INTO idempotency_ledger (key, run_id, task_id, skill, args_hash, state)"
        " VALUES (%s, %s, %s, %s, %s, 'started') ON CONFLICT (key) DO NOTHING RETURNING key",
        (key, run_id, task_id, skill, args_hash),
    )
    if await cur.fetchone() is not None:
        return None
    # A failed attempt changed nothing durable, so it may run again; the
    # conditional UPDATE lets only one of several retrying callers take it.
    cur = await conn.execute(
        "UPDATE idempotency_ledger SET state = 'started', result = NULL,"
        " created_at = now(), completed_at = NULL"
        " WHERE key = %s AND state = 'failed' RETURNING key",
        (key,),
    )
    if await cur.fetchone() is not None:
        return None
    return await get_entry(conn, key)


async def get_entry(conn: psycopg.AsyncConnection[DictRow], key: str) -> LedgerEntry | None:
    """The entry for `key`, if any."""
    cur = await conn.execute(
        "SELECT key, state, result, created_at FROM idempotency_ledger WHERE key = %s", (key,)
    )
    row = await cur.fetchone()
    if row is None:
        return None
    return LedgerEntry(row["key"], row["state"], row["result"], row["created_at"])


async def finish(
    conn: psycopg.AsyncConnection[DictRow], key: str, state: LedgerState, result: Any
) -> None:
    """Record the outcome of a claimed key."""
    await conn.execute(
        "UPDATE idempotency_ledger SET state = %s, result = %s, completed_at = now()"
        " WHERE key = %s",
        (state, Jsonb(result, dumps=_dumps), key),
    )


def _dumps(value: Any) -> str:
    # Payloads are meant to be JSON already; a stray datetime or Decimal is
    # stored as text rather than losing the record of a completed effect.
    return json.dumps(value, default=str)
