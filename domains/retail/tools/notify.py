"""`send_notification_v1`: enqueue an e-mail in the outbox; never send it here.

The harness queues it (`skills.outbox.enqueue`): the row and the call's
ledger completion commit together, and the outbox worker delivers it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checkpoints.outbox import Conn
from domains.retail.results import Notification
from domains.retail.storage import reads
from domains.retail.tools.arguments import NotificationArgs, parse_args
from domains.retail.tools.executors import ensure_owner
from skills.contract import RiskLevel, SkillContext
from skills.errors import RecordNotFound
from skills.outbox.enqueue import enqueue_in_call, withdraw_queued


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

        async def recipient(conn: Conn) -> str:
            user = await reads.fetch_user(conn, args["user_id"])
            if user is None:
                raise RecordNotFound("User not found")
            return str(args.get("recipient") or user["email"])

        return await enqueue_in_call(ctx, args, user_id=args["user_id"], recipient=recipient)

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        await withdraw_queued(ctx, payload)
