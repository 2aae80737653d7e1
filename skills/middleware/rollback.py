"""Rollback: compensate a side effect that failed half-way, or on request.

An executor that fails after doing part of its work raises a `SkillError`
carrying `partial=<what to undo>`; this link hands that to
`executor.rollback` before the failure travels on (so a retry starts
clean). Executors whose work is atomic never set `partial`, and are never
rolled back on failure.
"""

from __future__ import annotations

from typing import Any

from checkpoints import ledger
from checkpoints.opening import Pool
from skills.contract import SkillResult
from skills.errors import DomainError, ForbiddenOperation, SkillError
from skills.hashing import idempotency_key
from skills.middleware.call import Call, Next
from skills.middleware.classify import error_code
from skills.middleware.risk import effective_risk


class RollbackOnFailure:
    """Undo the partial work of a failed side-effecting attempt."""

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        try:
            return await next(call)
        except Exception as exc:
            partial = _partial(exc)
            if call.metadata.side_effect and partial is not None:
                await run_rollback(call, partial, reason=error_code(exc))
            raise


class Compensate:
    """Terminal of the compensation chain: undo a completed side effect.

    Only an effect the ledger recorded for this exact call (run, task, skill,
    args) can be undone, and only with the result it recorded: a caller can
    neither name somebody else's effect by its payload nor undo what never
    ran. The call's arguments pass the same ownership rules as the call
    itself. The key is then marked failed: the effect no longer holds.
    """

    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def __call__(self, call: Call) -> SkillResult:
        if effective_risk(call) == "forbidden":
            raise ForbiddenOperation(f"{call.skill_id}: not yours to undo", skill=call.skill_id)
        req = call.request
        key = idempotency_key(req.run_id, req.task_id, call.skill_id, call.trace.args_hash)
        claimed = call.trace.detail.get("compensate_payload")
        async with self._pool.connection() as conn:
            entry = await ledger.get_entry(conn, key)
            if entry is None or entry.state != "succeeded":
                raise DomainError(f"{call.skill_id}: no completed effect of this call to undo")
            if claimed is not None and claimed != entry.result:
                raise DomainError(f"{call.skill_id}: the payload is not what this call recorded")
            payload = entry.result
            ok = await run_rollback(call, payload, reason="requested")
            if ok:
                await ledger.forget_outcome(conn, key)
        call.trace.status = "rolled_back"
        if not ok:
            raise SkillError(f"{call.skill_id}: rollback failed; see the audit detail")
        return SkillResult(skill_id=call.skill_id, status="success", payload=payload)


async def run_rollback(call: Call, payload: Any, *, reason: str) -> bool:
    """Call `executor.rollback` and record the outcome in the audit detail."""
    record: dict[str, Any] = {"reason": reason, "payload": payload, "status": "done"}
    try:
        await call.executor.rollback(call.args, call.ctx, payload)
    except Exception as exc:  # noqa: BLE001 — a failed compensation is recorded, the original error wins
        # The original failure matters more than the failed compensation;
        # both are kept in the audit row.
        record.update(status="failed", error=repr(exc))
    call.trace.detail.setdefault("rollbacks", []).append(record)
    return bool(record["status"] == "done")


def _partial(exc: Exception) -> Any:
    if isinstance(exc, SkillError) and "partial" in exc.fields:
        return exc.fields["partial"]
    return getattr(exc, "partial", None)
