"""`send_notification_v1`: enqueue an e-mail in the outbox; never send it here.

The row is inserted in the same transaction that records the call's ledger
completion, so a crash leaves both or neither, and a re-executed step
replays the recorded result instead of queueing again (the row's
idempotency key is unique too). Delivery belongs to the outbox worker
(`skills.outbox.worker`), which retries with backoff and never re-sends a
message whose outcome is unknown. The call's answer therefore says
`queued`, which is what is true when it returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checkpoints import outbox
from domains.retail.results import Notification
from domains.retail.storage import reads
from domains.retail.tools.arguments import NotificationArgs, parse_args
from domains.retail.tools.executors import ensure_owner
from skills.contract import RiskLevel, SkillContext
from skills.errors import RecordNotFound
from skills.hashing import args_hash
from skills.pii import mask_email


class NotificationExecutor:
    """`send_notification_v1`: one outbox row per idempotency key, status `queued`."""

    output = Notification

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
        ensure_owner(ctx, args["user_id"], "user")
        # Without the ledger (a direct call) the arguments name the message.
        key = getattr(ctx, "idempotency_key", None) or "notify:" + args_hash(args)
        async with ctx.pool.connection() as conn, conn.transaction():
            done, recorded = await ctx.recorded_effect(conn)
            if done:
                return dict(recorded)  # an earlier attempt committed; its COMMIT reply was lost
            user = await reads.fetch_user(conn, args["user_id"])
            if user is None:
                raise RecordNotFound("User not found")
            row = await outbox.enqueue(
                conn,
                user_id=args["user_id"],
                recipient=args.get("recipient") or user["email"],
                subject=args["subject"],
                body=args["body"],
                key=key,
            )
            payload = queued_payload(row)
            await ctx.record_effect(conn, payload)
            return payload

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        """Withdraw the customer's own notification while no worker has claimed it
        (one being sent, or sent, cannot be)."""
        if not isinstance(payload, Mapping) or "notification_id" not in payload:
            return
        async with ctx.pool.connection() as conn:
            await outbox.withdraw(conn, int(payload["notification_id"]), ctx.user_id)


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
