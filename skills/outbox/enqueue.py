"""Queue a notification from inside a skill call; a domain's notification skill
calls `enqueue_in_call` and never sends anything itself.

The outbox row is inserted in the same transaction that records the call's
ledger completion, so a crash leaves both or neither, and a re-executed step
replays the recorded result instead of queueing again (the row's idempotency
key is unique too). Delivery belongs to the outbox worker (`skills.outbox.worker`),
which retries with backoff and never re-sends a message whose outcome is
unknown; the call's answer therefore says `queued`, which is what is true
when it returns.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from checkpoints import outbox
from checkpoints.outbox import Conn
from skills.contract import SkillContext
from skills.hashing import args_hash
from skills.pii import mask_email

Recipient = Callable[[Conn], Awaitable[str]]
"""Reads the address to write to, inside the call's transaction (the domain's own table)."""


async def enqueue_in_call(
    ctx: SkillContext, args: Mapping[str, Any], *, user_id: str, recipient: Recipient
) -> dict[str, Any]:
    """Queue `args["subject"]`/`args["body"]` for `user_id` once; the call's result."""
    # Without the ledger (a direct call) the arguments name the message.
    key = ctx.idempotency_key or "notify:" + args_hash(dict(args))
    async with ctx.pool.connection() as conn, conn.transaction():
        done, recorded = await ctx.recorded_effect(conn)
        if done:
            return dict(recorded)  # an earlier attempt committed; its COMMIT reply was lost
        row = await outbox.enqueue(
            conn,
            user_id=user_id,
            recipient=await recipient(conn),
            subject=args["subject"],
            body=args["body"],
            key=key,
        )
        payload = queued_payload(row)
        await ctx.record_effect(conn, payload)
        return payload


def queued_payload(row: outbox.Notification) -> dict[str, Any]:
    """The call's result: the row's id and Message-ID, masked recipient and status.

    A new row is `queued`; a row found under the same key reports where it
    stands (`sent`, `failed`; still `queued` while pending, sending or held).
    """
    status = row.status if row.status in ("sent", "failed") else "queued"
    return {
        "notification_id": row.id,
        "recipient": mask_email(row.recipient),
        "status": status,
        "message_id": row.message_id,
    }


async def withdraw_queued(ctx: SkillContext, payload: Any) -> None:
    """Compensation: withdraw the customer's own queued message while no worker
    has claimed it (one being sent, or sent, cannot be)."""
    if isinstance(payload, Mapping) and "notification_id" in payload:
        async with ctx.pool.connection() as conn:
            await outbox.withdraw(conn, int(payload["notification_id"]), ctx.user_id)
