"""A change of mind: a new customer turn withdraws what still waits for an operator.

A turn that ended waiting for an approval is over once the customer says
something new ("actually, don't cancel it"): every request of the thread still
pending is closed as `withdrawn` (it can never be approved afterwards) and each
withdrawal is audited on the turn that asked for it.
"""

from __future__ import annotations

from checkpoints import approvals
from checkpoints.audit import AuditEvent, record_event
from nodes.context import ADHOC, SupportContext, run_position
from nodes.language import Lang, say
from nodes.state import SupportState

WITHDRAWN = "approval_withdrawn"


async def withdraw_open_requests(ctx: SupportContext, state: SupportState) -> int:
    """Withdraw the thread's pending requests if its last turn left any; how many."""
    if not state.get("pending"):
        return 0
    position = run_position()
    thread_id = position.thread_id or ADHOC
    async with ctx.pool.connection() as conn, conn.transaction():
        closed = await approvals.withdraw_pending(conn, thread_id)
        for row in closed:
            event = AuditEvent(
                audit_id=row.audit_id or state.get("audit_id") or ADHOC,
                status=WITHDRAWN,
                thread_id=thread_id,
                step=position.step,
                node="turn",
                skill=row.skill,
                args_hash=row.args_hash,
                approval_id=row.request_id,
                detail={"by": "customer", "reason": "the customer sent a new message"},
            )
            await record_event(conn, event)
    return len(closed)


def withdrawn_note(count: int, lang: Lang) -> str | None:
    """What the answer says about requests the new turn withdrew."""
    if not count:
        return None
    return say(
        lang,
        "I have withdrawn the earlier request that was waiting for approval; nothing was changed.",
        "之前等待审批的请求已撤回，没有做任何更改。",
    )
