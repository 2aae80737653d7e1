"""Rows for the outbox tests: one customer, and queued notifications addressed to them."""

from __future__ import annotations

import uuid

from checkpoints import outbox
from checkpoints.opening import Database
from checkpoints.outbox import Notification

USER, EMAIL = "outbox_user_0001", "outbox.user@example.com"


async def add_user(db: Database) -> None:
    async with db.pool.connection() as conn:
        await conn.execute(
            "INSERT INTO users VALUES (%s, 'Out', 'Box', %s, '1 Main St', '', 'Town', 'USA',"
            " 'CA', '90000') ON CONFLICT DO NOTHING",
            (USER, EMAIL),
        )


async def enqueue(db: Database, subject: str = "Your order") -> Notification:
    """One queued row under a fresh idempotency key."""
    async with db.pool.connection() as conn:
        return await outbox.enqueue(
            conn, user_id=USER, recipient=EMAIL, subject=subject,
            body=f"About: {subject}", key="test-" + uuid.uuid4().hex,
        )  # fmt: skip


async def row(db: Database, notification_id: int) -> outbox.Notification:
    async with db.pool.connection() as conn:
        found = await outbox.get(conn, notification_id)
    assert found is not None
    return found


async def settle_all(db: Database) -> None:
    """Take every row out of the way of the next test (they share the module's database)."""
    async with db.pool.connection() as conn:
        await conn.execute(
            "UPDATE notifications SET status = 'failed', last_error = 'test cleanup'"
            " WHERE status <> 'sent'"
        )
