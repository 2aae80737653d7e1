"""Notifications: an outbox row first, then delivery by SMTP, retried until sent.

The row is committed before delivery is tried, so a crash between the two
loses nothing: `deliver_pending` re-sends what is still pending. The row's
idempotency key is unique and delivery claims the row with
`FOR UPDATE SKIP LOCKED` and sends only while it is pending, so one key never
produces two emails (a crash after the SMTP server accepted a message but
before the commit is the one at-least-once window left).
"""

from __future__ import annotations

import asyncio
import smtplib
from collections.abc import Mapping
from email.message import EmailMessage
from typing import Any

from checkpoints.retail import reads
from skills.contract import RiskLevel, SkillContext
from skills.errors import RecordNotFound
from skills.faults import crash_point
from skills.hashing import args_hash
from skills.retail.arguments import NotificationArgs, parse_args
from skills.retail.executors import ensure_owner

DEFAULT_SENDER = "support@rolegraph.invalid"
MAX_ATTEMPTS = 5
SMTP_TIMEOUT_SECONDS = 10.0

_ENQUEUE = """
INSERT INTO notifications (user_id, channel, recipient, subject, body, idempotency_key)
VALUES (%s, 'email', %s, %s, %s, %s)
ON CONFLICT (idempotency_key) DO NOTHING
"""
_CLAIM = "SELECT * FROM notifications WHERE id = %s AND status = 'pending' FOR UPDATE SKIP LOCKED"
_SENT = "UPDATE notifications SET status = 'sent', attempts = attempts + 1, sent_at = now(),"
_SENT += " last_error = NULL WHERE id = %s"
_FAILED = "UPDATE notifications SET attempts = attempts + 1, last_error = %s,"
_FAILED += " status = CASE WHEN attempts + 1 >= %s THEN 'failed' ELSE 'pending' END WHERE id = %s"


class NotificationExecutor:
    """`send_notification_v1`: enqueue, then try to deliver at once."""

    def validate_input(self, args: Mapping[str, Any]) -> dict[str, Any]:
        return parse_args(NotificationArgs, args)

    def risk_for(self, args: Mapping[str, Any], ctx: SkillContext) -> RiskLevel:
        """Medium to the account's own address, high to anyone else, forbidden for another user.

        Decided from the arguments alone (the gate runs before any read): an
        explicit `recipient` counts as another recipient.
        """
        if ctx.user_id is not None and args.get("user_id") != ctx.user_id:
            return "forbidden"
        return "medium" if args.get("recipient") is None else "high"

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> dict[str, Any]:
        key = getattr(ctx, "idempotency_key", None) or "notify:" + args_hash(args)
        notification_id = await _enqueue(ctx, args, key)
        crash_point("notify_after_enqueue")
        row = await deliver(ctx.pool, ctx.settings, notification_id)
        return _payload(row)

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        """Withdraw a notification that has not gone out yet (a sent email cannot be)."""
        if not isinstance(payload, Mapping) or "notification_id" not in payload:
            return
        async with ctx.pool.connection() as conn:
            await conn.execute(
                "UPDATE notifications SET status = 'failed', last_error = 'withdrawn'"
                " WHERE id = %s AND status = 'pending'",
                (payload["notification_id"],),
            )


async def deliver(pool: Any, settings: Mapping[str, str], notification_id: int) -> dict[str, Any]:
    """Try to send one pending notification; return its row afterwards."""
    if settings.get("SMTP_HOST"):
        async with pool.connection() as conn, conn.transaction():
            cur = await conn.execute(_CLAIM, (notification_id,))
            row = await cur.fetchone()
            if row is not None:
                await _attempt(conn, settings, row)
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT * FROM notifications WHERE id = %s", (notification_id,))
        final: dict[str, Any] = await cur.fetchone()
        return final


async def deliver_pending(pool: Any, settings: Mapping[str, str], *, limit: int = 100) -> int:
    """Re-send up to `limit` pending notifications, oldest first; return how many went out."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT id FROM notifications WHERE status = 'pending'"
            " ORDER BY created_at, id LIMIT %s",
            (limit,),
        )
        ids = [row["id"] for row in await cur.fetchall()]
    sent = 0
    for notification_id in ids:
        row = await deliver(pool, settings, notification_id)
        sent += row["status"] == "sent"
    return sent


async def _enqueue(ctx: SkillContext, args: dict[str, Any], key: str) -> int:
    ensure_owner(ctx, args["user_id"], "user")
    async with ctx.pool.connection() as conn, conn.transaction():
        user = await reads.fetch_user(conn, args["user_id"])
        if user is None:
            raise RecordNotFound("User not found")
        recipient = args.get("recipient") or user["email"]
        values = (args["user_id"], recipient, args["subject"], args["body"], key)
        await conn.execute(_ENQUEUE, values)
        cur = await conn.execute("SELECT id FROM notifications WHERE idempotency_key = %s", (key,))
        row = await cur.fetchone()
        return int(row["id"])


async def _attempt(conn: Any, settings: Mapping[str, str], row: Mapping[str, Any]) -> None:
    try:
        await asyncio.to_thread(_smtp_send, settings, row)
    except (OSError, smtplib.SMTPException) as exc:
        error = f"{type(exc).__name__}: {exc}"[:500]
        await conn.execute(_FAILED, (error, _max_attempts(settings), row["id"]))
    else:
        await conn.execute(_SENT, (row["id"],))


def _smtp_send(settings: Mapping[str, str], row: Mapping[str, Any]) -> None:
    message = EmailMessage()
    message["From"] = settings.get("SMTP_FROM", DEFAULT_SENDER)
    message["To"] = row["recipient"]
    message["Subject"] = row["subject"]
    # Lets a receiving system drop a duplicate should the at-least-once window ever open.
    message["Message-ID"] = f"<{row['idempotency_key'][-40:]}@rolegraph>"
    message.set_content(row["body"])
    port = int(settings.get("SMTP_PORT", "25"))
    with smtplib.SMTP(settings["SMTP_HOST"], port, timeout=SMTP_TIMEOUT_SECONDS) as smtp:
        smtp.send_message(message)


def _max_attempts(settings: Mapping[str, str]) -> int:
    return int(settings.get("NOTIFY_MAX_ATTEMPTS", str(MAX_ATTEMPTS)))


def _payload(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "notification_id": row["id"],
        "recipient": mask_email(row["recipient"]),
        "status": row["status"],
        "attempts": row["attempts"],
        "last_error": row["last_error"],
    }


def mask_email(address: str) -> str:
    """`j***@example.com`: enough to recognise, not enough to harvest."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"
