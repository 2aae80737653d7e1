"""Approvals recorded the way the approval node records them, for runtime-level tests."""

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
    row = approvals.RequestRow(
        request_id=approval.approval_id,
        thread_id=thread_id,
        kind="approval",
        audit_id=approval.approval_id,
        reason="test",
        task_id=task_id,
        skill=approval.skill_id,
        args_hash=approval.args_hash,
    )
    async with pool.connection() as conn:
        await approvals.record_request(conn, row)
        await approvals.record_decision(
            conn,
            approval.approval_id,
            status="approved",
            decided_by=decided_by,
            args=None,
            args_hash=approval.args_hash,
        )
