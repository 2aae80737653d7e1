"""`send_notification_v1`: queue a message to a member in the harness's outbox.

The row is inserted in the step's own transaction together with the ledger's
record of the call, so a crash leaves both or neither and a re-run replays the
recorded result. The outbox worker delivers it; the answer says `queued`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checkpoints.outbox import Conn
from domains.library.storage import store
from domains.library.tools.arguments import NotificationArgs, parse_args
from domains.library.tools.executors import ensure_owner
from domains.library.tools.results import NotificationResult
from skills.contract import RiskLevel, SkillContext
from skills.errors import RecordNotFound
from skills.outbox.enqueue import enqueue_in_call, withdraw_queued


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

        async def recipient(conn: Conn) -> str:
            member = await store.member(conn, args["member_id"])
            if member is None:
                raise RecordNotFound("Member not found")
            return member.email

        return await enqueue_in_call(ctx, args, user_id=args["member_id"], recipient=recipient)

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        """Withdraw the message while no worker has claimed it."""
        await withdraw_queued(ctx, payload)
