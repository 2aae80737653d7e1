"""Approvals recorded the way an operator's decision is recorded, for runtime-level tests."""

from __future__ import annotations

from typing import Any

from checkpoints import approvals
from skills.contract import Approval


async def record_approval(
    pool: Any,
    approval: Approval,
    *,
    thread_id: str = "adhoc",
    task_id: str = "adhoc",
    decided_by: str = "operator:test-operator",
) -> None:
    """Store `approval` as asked for (thread, task) and decided by `decided_by`."""
    call = approvals.CallToApprove(
        approval_id=approval.approval_id,
        thread_id=thread_id,
        task_id=task_id,
        skill=approval.skill_id,
        args_hash=approval.args_hash,
        effect_key="",
    )
    async with pool.connection() as conn:
        await approvals.record_granted(conn, call, decided_by=decided_by, reason="test")
