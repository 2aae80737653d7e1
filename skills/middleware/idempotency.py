"""Idempotency ledger: a side-effecting call with a key seen before returns
the recorded result instead of running again.

This is what makes LangGraph's re-execution of a node on resume, and crash
recovery, safe: the key is (run, task, skill, args hash), so the same task
asking for the same effect gets the first answer, across processes.

A claim is a lease. A `started` row whose lease ran out belongs to a process
that died; it is reconciled instead of waited on forever:
- a transactional effect commits its ledger completion in its own
  transaction, so a row still `started` proves the effect absent: the call
  takes the claim over and runs;
- an external effect may or may not have happened: the row becomes
  `unknown` and the call fails with `outcome_unknown`, which refinement
  escalates to an operator; it is never repeated blindly.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from functools import partial
from typing import Any

from checkpoints import ledger
from checkpoints.ledger import LedgerEntry
from checkpoints.opening import Pool
from skills.context import RuntimeContext
from skills.contract import SkillResult
from skills.errors import OutcomeUnknown, SkillTimeout
from skills.faults import crash_point
from skills.hashing import idempotency_key
from skills.middleware.call import Call, Next
from skills.middleware.classify import error_code
from skills.middleware.result_check import check_result

_POLL_SECONDS = 0.05


class IdempotencyLedger:
    """Claim the key, run once, record the outcome; replay a recorded success."""

    def __init__(self, pool: Pool, *, lease_factor: float = 4.0, min_lease: float = 5.0) -> None:
        self._pool = pool
        self._lease_factor = lease_factor
        self._min_lease = min_lease

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        if not call.metadata.side_effect:
            return await next(call)
        req = call.request
        key = idempotency_key(req.run_id, req.task_id, call.skill_id, call.trace.args_hash)
        call.trace.detail["idempotency_key"] = key
        lease = self._lease(call)
        while True:
            async with self._pool.connection() as conn:
                existing = await ledger.claim(
                    conn,
                    key=key,
                    run_id=req.run_id,
                    task_id=req.task_id,
                    skill=call.skill_id,
                    args_hash=call.trace.args_hash,
                    lease_seconds=lease,
                    transactional=call.metadata.effect == "transactional",
                )
                if existing is not None and existing.state == "started":
                    existing = await self._reconcile(conn, call, existing, lease)
            if existing is None:
                crash_point("after_ledger_claim")
                return await self._run_owned(call, next, key)
            if existing.state == "succeeded":
                return _replay(call, existing)
            if existing.state == "unknown":
                raise _unknown(call, key)
            await self._wait_for_lease(key, lease)

    def _lease(self, call: Call) -> float:
        # Long enough for every retry of the call; a live owner finishes well inside it.
        return max(self._min_lease, self._lease_factor * call.metadata.timeout_seconds)

    async def _reconcile(
        self, conn: Any, call: Call, entry: LedgerEntry, lease: float
    ) -> LedgerEntry | None:
        """A `started` row: still leased (wait), or its owner died (take over / unknown)."""
        if not entry.lease_expired:
            return entry
        if entry.transactional:
            if await ledger.take_over(conn, entry.key, lease):
                call.trace.detail["reconciled"] = "taken_over"
                return None
            return await ledger.get_entry(conn, entry.key)
        await ledger.finish(conn, entry.key, "unknown", {"reason": "owner died mid-call"})
        return await ledger.get_entry(conn, entry.key)

    async def _run_owned(self, call: Call, next: Next, key: str) -> SkillResult:
        if isinstance(call.ctx, RuntimeContext):
            check = partial(check_result, call.skill_id, call.skill.output)
            call = replace(call, ctx=replace(call.ctx, idempotency_key=key, check_result=check))
        try:
            result = await next(call)
        except BaseException as exc:
            # Cancellation too: the claim must not stay 'started' until its lease ends.
            state: ledger.LedgerState = "failed"
            if call.metadata.effect == "external" and isinstance(
                exc, SkillTimeout | asyncio.CancelledError
            ):
                state = "unknown"  # the request may have reached the other side
            failure = {"error_code": error_code(exc), "message": str(exc)}
            async with self._pool.connection() as conn:
                await ledger.finish(conn, key, state, failure)
            raise
        crash_point("after_effect_commit")
        async with self._pool.connection() as conn:
            await ledger.finish(conn, key, "succeeded", result.payload)
        return result

    async def _wait_for_lease(self, key: str, lease: float) -> None:
        """Poll until the row changes or its lease can have run out."""
        waited = 0.0
        while waited < lease + 1.0:
            # Real time on purpose: the owner is another task or process.
            await asyncio.sleep(_POLL_SECONDS)
            waited += _POLL_SECONDS
            async with self._pool.connection() as conn:
                entry = await ledger.get_entry(conn, key)
            if entry is None or entry.state != "started" or entry.lease_expired:
                return


def _unknown(call: Call, key: str) -> OutcomeUnknown:
    return OutcomeUnknown(
        f"{call.skill_id}: an earlier attempt (key {key[:12]}) may or may not have taken"
        " effect; an operator must check before it runs again",
        key=key,
    )


def _replay(call: Call, entry: LedgerEntry) -> SkillResult:
    call.trace.status = "replayed"
    return SkillResult(
        skill_id=call.skill_id, status="success", payload=entry.result, replayed=True
    )
