"""The notifications outbox: the one owner of the `notifications` table.

A step that notifies only enqueues a row, inside its own transaction; a
delivery worker claims due rows with a lease (`sending`, `claimed_by`,
`claimed_until`), so its claim survives while it talks to the SMTP server
without holding a connection or a row lock. Every worker update is fenced on
`claimed_by`, so a worker that lost its lease changes nothing.

A worker records `data_started_at` before it sends DATA. A row whose lease
ran out is therefore recovered exactly: back to `pending` when DATA was
never started (the message provably never left), `unknown` otherwise. An
`unknown` row stays claimed until an operator retries or drops it; it is
never re-sent by a worker.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

import psycopg
from psycopg.rows import DictRow

Conn = psycopg.AsyncConnection[DictRow]
Channel = Literal["email", "webhook"]
"""How a row is delivered: an e-mail to `recipient`, or an HTTP POST of `body` to it."""
CHANNELS: tuple[Channel, ...] = ("email", "webhook")
NotificationStatus = Literal["pending", "sending", "sent", "failed", "unknown"]
STATUSES: tuple[NotificationStatus, ...] = ("pending", "sending", "sent", "failed", "unknown")

_COLUMNS = (
    "id, user_id, channel, recipient, subject, body, status, attempts, last_error, idempotency_key,"
    " message_id, next_attempt_at, claimed_by, created_at, sent_at"
)

# A verdict from the server may still land on a row a lost lease turned
# `unknown`: the worker that sent DATA keeps the claim and knows the answer.
_HELD = "status IN ('sending', 'unknown') AND claimed_by = %s"


@dataclass(frozen=True)
class Notification:
    """One outbox row as the worker and the CLI see it."""

    id: int
    user_id: str
    channel: Channel
    recipient: str
    subject: str
    body: str
    status: NotificationStatus
    attempts: int
    last_error: str | None
    idempotency_key: str
    message_id: str
    next_attempt_at: datetime
    claimed_by: str | None
    created_at: datetime
    sent_at: datetime | None


def message_id_for(key: str) -> str:
    """A Message-ID that is the same for every attempt of one idempotency key."""
    return f"<{hashlib.sha256(key.encode()).hexdigest()[:32]}@rolegraph.outbox>"


async def enqueue(
    conn: Conn,
    *,
    user_id: str,
    recipient: str,
    subject: str,
    body: str,
    key: str,
    channel: Channel = "email",
) -> Notification:
    """Insert the row for `key` once; a second call returns the first row.

    Call it inside the caller's transaction so the row commits with the step.
    """
    await conn.execute(
        "INSERT INTO notifications"
        " (user_id, channel, recipient, subject, body, idempotency_key, message_id)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (idempotency_key) DO NOTHING",
        (user_id, channel, recipient, subject, body, key, message_id_for(key)),
    )
    rows = await _select(conn, "idempotency_key = %s", (key,))
    return rows[0]


async def get(conn: Conn, notification_id: int) -> Notification | None:
    """The row `notification_id`, if any."""
    rows = await _select(conn, "id = %s", (notification_id,))
    return rows[0] if rows else None


async def list_rows(
    conn: Conn, status: NotificationStatus | None = None, limit: int = 50
) -> list[Notification]:
    """Newest first, optionally only rows in `status`."""
    where, params = ("status = %s", (status,)) if status else ("true", ())
    return await _select(conn, f"{where} ORDER BY id DESC LIMIT %s", (*params, limit))


async def status_counts(conn: Conn) -> dict[NotificationStatus, int]:
    """How many rows are in each status (every status present, zero or not)."""
    cur = await conn.execute("SELECT status, count(*) AS n FROM notifications GROUP BY status")
    found = {row["status"]: int(row["n"]) for row in await cur.fetchall()}
    return {status: found.get(status, 0) for status in STATUSES}


async def recover_expired(conn: Conn) -> int:
    """Settle `sending` rows whose worker's lease ran out; return how many.

    Before DATA the message never left: `pending` again, due now. After
    DATA it may have been delivered: `unknown`, kept claimed.
    """
    cur = await conn.execute(
        "UPDATE notifications SET updated_at = now(),"
        " status = CASE WHEN data_started_at IS NULL THEN 'pending' ELSE 'unknown' END,"
        " next_attempt_at = now(), claimed_until = NULL,"
        " claimed_by = CASE WHEN data_started_at IS NULL THEN NULL ELSE claimed_by END,"
        " last_error = CASE WHEN data_started_at IS NULL THEN last_error"
        "   ELSE 'worker lost after DATA: outcome unknown' END"
        " WHERE status = 'sending' AND claimed_until < now()"
    )
    return cur.rowcount


async def claim_due(
    conn: Conn,
    *,
    worker: str,
    limit: int,
    lease_seconds: float,
    channels: tuple[Channel, ...] = CHANNELS,
) -> list[Notification]:
    """Claim up to `limit` due `pending` rows of `channels` for `worker`, oldest due first.

    SKIP LOCKED lets concurrent workers claim disjoint rows without waiting;
    the claim commits with the caller's statement, and the lease keeps it.
    Rows of a channel the worker cannot deliver stay pending for one that can.
    """
    cur = await conn.execute(
        "UPDATE notifications SET status = 'sending', claimed_by = %s, claimed_at = now(),"
        " claimed_until = now() + make_interval(secs => %s), data_started_at = NULL,"
        " updated_at = now()"
        " WHERE id IN (SELECT id FROM notifications WHERE status = 'pending'"
        "   AND next_attempt_at <= now() AND channel = ANY(%s)"
        "   ORDER BY next_attempt_at, id LIMIT %s FOR UPDATE SKIP LOCKED)"
        " RETURNING id",
        (worker, lease_seconds, list(channels), limit),
    )
    ids = [int(row["id"]) for row in await cur.fetchall()]
    if not ids:
        return []
    return await _select(conn, "id = ANY(%s) ORDER BY next_attempt_at, id", (ids,))


async def release(conn: Conn, notification_ids: list[int], worker: str) -> int:
    """Give back claimed rows `worker` never began sending (stopping early): due
    again at once, no attempt counted."""
    cur = await conn.execute(
        "UPDATE notifications SET status = 'pending', claimed_by = NULL, claimed_until = NULL,"
        " updated_at = now() WHERE id = ANY(%s) AND status = 'sending' AND claimed_by = %s"
        " AND data_started_at IS NULL",
        (notification_ids, worker),
    )
    return cur.rowcount


async def mark_data_started(conn: Conn, notification_id: int, worker: str) -> bool:
    """Record that `worker` is about to send DATA; False if its claim is gone."""
    changes = "data_started_at = now()"
    return await _fenced(conn, notification_id, worker, changes, only_sending=True)


async def mark_sent(conn: Conn, notification_id: int, worker: str) -> bool:
    """The server accepted the message."""
    changes = "status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = NULL,"
    return await _fenced(conn, notification_id, worker, changes + " claimed_until = NULL")


async def mark_unknown(conn: Conn, notification_id: int, worker: str, error: str) -> bool:
    """DATA went out and no verdict came back: hold the row for an operator."""
    changes = "status = 'unknown', attempts = attempts + 1, last_error = %s, claimed_until = NULL"
    return await _fenced(conn, notification_id, worker, changes, (error[:500],))


async def mark_failed(conn: Conn, notification_id: int, worker: str, error: str) -> bool:
    """The server refused the message for good (a 5xx answer): no retry."""
    changes = "status = 'failed', attempts = attempts + 1, last_error = %s, claimed_until = NULL"
    return await _fenced(conn, notification_id, worker, changes, (error[:500],))


async def retry_later(
    conn: Conn,
    notification_id: int,
    worker: str,
    *,
    error: str,
    delay_seconds: float,
    max_attempts: int,
) -> NotificationStatus | None:
    """Count a failed attempt: `pending` again after `delay_seconds`, or `failed`
    once `max_attempts` are used. None if `worker` no longer holds the claim."""
    cur = await conn.execute(
        "UPDATE notifications SET attempts = attempts + 1, last_error = %s, updated_at = now(),"
        " status = CASE WHEN attempts + 1 >= %s THEN 'failed' ELSE 'pending' END,"
        " next_attempt_at = now() + make_interval(secs => %s),"
        " claimed_by = NULL, claimed_until = NULL, data_started_at = NULL"
        f" WHERE id = %s AND {_HELD} RETURNING status",
        (error[:500], max_attempts, delay_seconds, notification_id, worker),
    )
    row = await cur.fetchone()
    return None if row is None else row["status"]


async def withdraw(conn: Conn, notification_id: int, user_id: str | None) -> bool:
    """Cancel a row no worker has claimed yet; `user_id` (when given) must own it."""
    cur = await conn.execute(
        "UPDATE notifications SET status = 'failed', last_error = 'withdrawn', updated_at = now()"
        " WHERE id = %s AND status = 'pending' AND (%s::text IS NULL OR user_id = %s)",
        (notification_id, user_id, user_id),
    )
    return cur.rowcount == 1


async def operator_retry(conn: Conn, notification_id: int, operator: str) -> bool:
    """An operator checked an `unknown` or `failed` row: deliver it again, attempts reset."""
    cur = await conn.execute(
        "UPDATE notifications SET status = 'pending', attempts = 0, next_attempt_at = now(),"
        " claimed_by = NULL, claimed_until = NULL, data_started_at = NULL, updated_at = now(),"
        " last_error = %s WHERE id = %s AND status IN ('unknown', 'failed')",
        (f"retried by {operator}", notification_id),
    )
    return cur.rowcount == 1


async def operator_drop(conn: Conn, notification_id: int, operator: str) -> bool:
    """An operator gives up on an `unknown` or `pending` row: it is never sent."""
    cur = await conn.execute(
        "UPDATE notifications SET status = 'failed', claimed_until = NULL, updated_at = now(),"
        " last_error = %s WHERE id = %s AND status IN ('unknown', 'pending')",
        (f"dropped by {operator}", notification_id),
    )
    return cur.rowcount == 1


async def clear(conn: Conn) -> None:
    """Drop every row: a domain replacing its customers takes their queued mail with them."""
    await conn.execute("TRUNCATE notifications")


async def prune_settled(conn: Conn, older_than: timedelta) -> int:
    """Delete `sent` and `failed` rows last changed longer ago than `older_than`.

    Pending, sending and unknown rows are kept whatever their age: they are
    promises not yet settled.
    """
    cur = await conn.execute(
        "DELETE FROM notifications WHERE status IN ('sent', 'failed') AND updated_at < now() - %s",
        (older_than,),
    )
    return cur.rowcount


async def _fenced(
    conn: Conn,
    notification_id: int,
    worker: str,
    changes: str,
    params: tuple[str, ...] = (),
    *,
    only_sending: bool = False,
) -> bool:
    held = "status = 'sending' AND claimed_by = %s" if only_sending else _HELD
    cur = await conn.execute(
        f"UPDATE notifications SET {changes}, updated_at = now() WHERE id = %s AND {held}",
        (*params, notification_id, worker),
    )
    return cur.rowcount == 1


async def _select(conn: Conn, condition: str, params: tuple[object, ...]) -> list[Notification]:
    cur = await conn.execute(f"SELECT {_COLUMNS} FROM notifications WHERE {condition}", params)
    return [Notification(**row) for row in await cur.fetchall()]
