"""Idempotency ledger: a side-effecting call with a key seen before returns
the recorded result instead of running again.

This is what makes LangGraph's re-execution of a node on resume, and crash
recovery, safe: the key is (run, task, skill, args hash), so the same task
asking for the same effect gets the first answer, across processes.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from checkpoints import ledger
from checkpoints.ledger import LedgerEntry
from skills.context import RuntimeContext
from skills.contract import SkillResult
from skills.errors import IdempotencyInProgress
from skills.hashing import idempotency_key
from skills.middleware.call import Call, Next
from skills.middleware.classify import error_code

_POLL_SECONDS = 0.05


class IdempotencyLedger:
    """Claim the key, run once, record the outcome; replay a recorded success."""

    def __init__(self, pool: Any, *, wait_factor: float = 4.0, min_wait: float = 5.0) -> None:
        self._pool = pool
        self._wait_factor = wait_factor
        self._min_wait = min_wait

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        if not call.metadata.side_effect:
            return await next(call)
        req = call.request
        key = idempotency_key(req.run_id, req.task_id, call.skill_id, call.trace.args_hash)
        call.trace.detail["idempotency_key"] = key
        while True:
            async with self._pool.connection() as conn:
                existing = await ledger.claim(
                    conn,
                    key=key,
                    run_id=req.run_id,
                    task_id=req.task_id,
                    skill=call.skill_id,
                    args_hash=call.trace.args_hash,
                )
            if existing is None:
                return await self._run_owned(call, next, key)
            if existing.state == "succeeded":
                return _replay(call, existing)
            await self._wait_for_owner(call, key)

    async def _run_owned(self, call: Call, next: Next, key: str) -> SkillResult:
        if isinstance(call.ctx, RuntimeContext):
            call = replace(call, ctx=replace(call.ctx, idempotency_key=key))
        try:
            result = await next(call)
        except BaseException as exc:
            # Cancellation too: the claim must not stay 'started' forever.
            failure = {"error_code": error_code(exc), "message": str(exc)}
            async with self._pool.connection() as conn:
                await ledger.finish(conn, key, "failed", failure)
            raise
        async with self._pool.connection() as conn:
            await ledger.finish(conn, key, "succeeded", result.payload)
        return result

    async def _wait_for_owner(self, call: Call, key: str) -> None:
        """Poll until the owner finishes; give up after a few timeouts' worth."""
        budget = max(self._min_wait, self._wait_factor * call.metadata.timeout_seconds)
        waited = 0.0
        while waited < budget:
            # Real time on purpose: the owner is another task or process.
            await asyncio.sleep(_POLL_SECONDS)
            waited += _POLL_SECONDS
            async with self._pool.connection() as conn:
                entry = await ledger.get_entry(conn, key)
            if entry is None or entry.state != "started":
                return
        raise IdempotencyInProgress(
            f"{call.skill_id}: another call holds idempotency key {key[:12]} and has not"
            " finished; if its process died, check the side effect before deleting that"
            " idempotency_ledger row",
            key=key,
        )


def _replay(call: Call, entry: LedgerEntry) -> SkillResult:
    call.trace.status = "replayed"
    return SkillResult(
        skill_id=call.skill_id, status="success", payload=entry.result, replayed=True
    )
