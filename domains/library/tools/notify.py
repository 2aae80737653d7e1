"""`send_notification_v1`: queue a message to a member in the harness's outbox.

The row is inserted in the step's own transaction together with the ledger's
record of the call, so a crash leaves both or neither and a re-run replays the
recorded result. The outbox worker delivers it; the answer says `queued`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checkpoints import outbox
from domains.library.storage import store
from domains.library.tools.arguments import NotificationArgs, parse_args
from domains.library.tools.executors import ensure_owner
from domains.library.tools.results import NotificationResult
from skills.contract import RiskLevel, SkillContext
from skills.errors import RecordNotFound
from skills.hashing import args_hash


class NotificationExecutor:
    """One outbox row per idempotency key, to the member's own address."""

    output = NotificationResult

    def validate_input(self, args: Mapping[str, Any]) -> dict[str, Any]:
        return parse_args(NotificationArgs, args)

    def risk_for(self, args: Mapping[str, Any], ctx: SkillContext) -> RiskLevel:
        """Medium for the member's own address; forbidden for another member."""
        if ctx.user_id is not None and args.get("member_id") != ctx.user_id:
            return "forbidden"
        return "medium"

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> dict[str, Any]:
        ensure_owner(ctx, args["member_id"], "member")
        key = getattr(ctx, "idempotency_key", None) or "notify:" + args_hash(args)
        async with ctx.pool.connection() as conn, conn.transaction():
            done, recorded = await ctx.recorded_effect(conn)
            if done:
                return dict(recorded)  # an earlier attempt committed; its COMMIT reply was lost
            member = await store.member(conn, args["member_id"])
            if member is None:
                raise RecordNotFound("Member not found")
            row = await outbox.enqueue(
                conn,
                user_id=member.member_id,
                recipient=member.email,
                subject=args["subject"],
                body=args["body"],
                key=key,
            )
            payload = _payload(row).model_dump(mode="json")
            await ctx.record_effect(conn, payload)
            return payload

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        """Withdraw the message while no worker has claimed it."""
        if isinstance(payload, Mapping) and "notification_id" in payload:
            async with ctx.pool.connection() as conn:
                await outbox.withdraw(conn, int(payload["notification_id"]), ctx.user_id)


def _payload(row: outbox.Notification) -> NotificationResult:
    local, _, host = row.recipient.partition("@")
    status = row.status if row.status in ("sent", "failed") else "queued"
    return NotificationResult(
        notification_id=row.id,
        recipient=f"{local[:1]}***@{host}",
        status=status,
        message_id=row.message_id,
    )
