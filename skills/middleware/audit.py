"""Audit: the outermost link. Every call gets exactly one `audit_events` row,
whether it succeeded, failed, was denied or stopped for approval, and every
skill failure becomes an error `SkillResult` here.

Control signals (`ApprovalRequired`, cancellation, LangGraph's
`GraphBubbleUp`) are recorded and then re-raised, never swallowed.
"""

from __future__ import annotations

import asyncio
import time

from langgraph.errors import GraphBubbleUp

from checkpoints.audit import AuditEvent, record_event
from checkpoints.opening import Pool
from skills.contract import SkillRequest, SkillResult
from skills.errors import CallNeedsHuman, SkillError
from skills.hashing import args_hash
from skills.middleware.call import Call, Next
from skills.middleware.classify import error_code

_STATUS_BY_CODE = {"permission_denied": "denied", "forbidden": "forbidden", "timeout": "timeout"}


class Audit:
    """Write one row per call; also the rows for breaker transitions."""

    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        started = time.perf_counter()
        try:
            result = await next(call)
        except CallNeedsHuman as exc:
            call.trace.detail["reason"] = exc.reason
            await self._write_call(call, exc.audit_status, None, started)
            raise
        except (asyncio.CancelledError, GraphBubbleUp):
            await self._write_call(call, "cancelled", None, started)
            raise
        except Exception as exc:  # noqa: BLE001 — every failure is audited; control signals are re-raised above
            result = _failure(call, exc)
        result = result.model_copy(
            update={
                "retries": call.trace.retries,
                "duration_ms": _elapsed_ms(started),
                "notice": result.notice or call.trace.notice,
            }
        )
        if result.error_message:
            call.trace.detail["error_message"] = result.error_message
        status = _status(call, result)
        await self._write_call(call, status, result.error_code or call.trace.error_code, started)
        return result

    async def breaker_transition(self, call: Call, state: str) -> None:
        """A breaker changed state while serving `call`: one extra row."""
        event = self._event(call, f"breaker_{state}", None, 0)
        await self._write(event)

    async def unknown_skill(self, request: SkillRequest, exc: SkillError) -> SkillResult:
        """A request naming no loaded skill: audited, answered with an error."""
        event = AuditEvent(
            audit_id=request.audit_id,
            status="error",
            thread_id=request.thread_id,
            step=request.step,
            node=request.node,
            role=request.role,
            skill=request.skill_id,
            args_hash=args_hash(request.args),
            error_code=exc.code,
            detail={
                "error_message": str(exc),
                "run_id": request.run_id,
                "task_id": request.task_id,
            },
        )
        await self._write(event)
        return SkillResult(
            skill_id=request.skill_id, status="error", error_code=exc.code, error_message=str(exc)
        )

    async def _write_call(self, call: Call, status: str, code: str | None, started: float) -> None:
        try:
            await self._write(self._event(call, status, code, _elapsed_ms(started)))
        except asyncio.CancelledError:
            raise
        except Exception:
            if status not in ("cancelled", "approval_required", "confirmation_required"):
                raise
            # Losing the row must not mask the control signal being re-raised.

    def _event(self, call: Call, status: str, code: str | None, duration_ms: int) -> AuditEvent:
        req, trace = call.request, call.trace
        detail = {**trace.detail, "run_id": req.run_id, "task_id": req.task_id}
        if trace.notice:
            detail["notice"] = trace.notice
        return AuditEvent(
            audit_id=req.audit_id,
            status=status,
            thread_id=req.thread_id,
            step=req.step,
            node=req.node,
            role=req.role,
            skill=call.skill_id,
            version=call.metadata.version,
            args_hash=trace.args_hash,
            error_code=code,
            retries=trace.retries,
            duration_ms=duration_ms,
            breaker_state=trace.breaker_state,
            approval_id=trace.approval_id,
            detail=detail,
        )

    async def _write(self, event: AuditEvent) -> None:
        async with self._pool.connection() as conn:
            await record_event(conn, event)


def _failure(call: Call, exc: Exception) -> SkillResult:
    code = error_code(exc)
    return SkillResult(
        skill_id=call.skill_id,
        status="timeout" if code == "timeout" else "error",
        error_code=code,
        error_message=str(exc) or type(exc).__name__,
    )


def _status(call: Call, result: SkillResult) -> str:
    if result.ok:
        return call.trace.status or "success"
    return _STATUS_BY_CODE.get(result.error_code or "", "error")


def _elapsed_ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
