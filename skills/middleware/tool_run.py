"""Tool run: every skill call reported as a LangChain tool run.

Skills are not LangChain tools, so callback handlers (LangSmith with
`LANGSMITH_TRACING=true`, Langfuse's `CallbackHandler`, rolegraph's OpenTelemetry
handler) would see the graph's chain runs and no tool runs at all. This link,
outermost, opens a tool run under the run that is current (the role node's, read
from LangChain's config context), ends it with a `SkillRun` and makes it the
parent of whatever the call starts (a fallback call nests under it).

With no handler configured the link reads one context variable and steps aside.
"""

from __future__ import annotations

import time
from typing import Any

from langchain_core.callbacks import AsyncCallbackManager, BaseCallbackManager, Callbacks
from langchain_core.runnables.config import (
    ensure_config,
    patch_config,
    set_config_context,
    var_child_runnable_config,
)
from langchain_core.runnables.utils import coro_with_context
from pydantic import BaseModel, ConfigDict

from skills.contract import SkillResult
from skills.errors import CallNeedsHuman
from skills.middleware.call import Call, Next

SKILL_TAG = "rolegraph:skill"
"""The tag every skill tool run carries, so handlers can tell them from other tools."""


class SkillRun(BaseModel):
    """What a skill's tool run ends with: the call's outcome as the audit row has it."""

    model_config = ConfigDict(frozen=True)

    skill_id: str
    version: str
    role: str
    status: str
    """success | error | timeout, or the control signal: approval_required, confirmation_required."""
    error_code: str | None = None
    retries: int = 0
    duration_ms: int = 0
    breaker_state: str | None = None
    approval_id: str | None = None
    args_hash: str
    payload: Any = None


class ToolRun:
    """Report the call to the current run's callback handlers as a tool run."""

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        current = var_child_runnable_config.get()
        if current is None or not _has_handlers(current.get("callbacks")):
            # Nobody listens (outside a run, or a run without handlers; LangSmith's
            # tracer, when on, is among the run's handlers): nothing to report.
            return await next(call)
        config = ensure_config(current)
        manager = AsyncCallbackManager.configure(
            inheritable_callbacks=config.get("callbacks"),
            inheritable_tags=config.get("tags"),
            inheritable_metadata=config.get("metadata"),
            local_tags=[SKILL_TAG],
            local_metadata=_metadata(call),
        )
        if not manager.handlers:
            return await next(call)
        run = await manager.on_tool_start(
            {"name": call.skill_id, "description": call.metadata.description},
            str(call.args),
            name=call.skill_id,
            inputs=dict(call.args),
        )
        child = patch_config(config, callbacks=run.get_child())
        started = time.perf_counter()
        try:
            with set_config_context(child) as context:
                result = await coro_with_context(next(call), context)
        except CallNeedsHuman as signal:
            # Waiting for a person is an outcome of the call, not a failure.
            waited_ms = int((time.perf_counter() - started) * 1000)
            await run.on_tool_end(_run(call, signal.audit_status, duration_ms=waited_ms))
            raise
        except BaseException as exc:
            # Cancellation and LangGraph's control signals end the run as errors
            # too (a tool run left open would never close); all are re-raised.
            await run.on_tool_error(exc)
            raise
        await run.on_tool_end(_run(call, result.status, result))
        return result


def _has_handlers(callbacks: Callbacks) -> bool:
    if isinstance(callbacks, BaseCallbackManager):
        return bool(callbacks.handlers)
    return bool(callbacks)


def _metadata(call: Call) -> dict[str, Any]:
    return {
        "rolegraph_skill": call.skill_id,
        "rolegraph_skill_version": call.metadata.version,
        "rolegraph_role": call.role.name,
        "rolegraph_task": call.request.task_id,
    }


def _run(
    call: Call, status: str, result: SkillResult | None = None, *, duration_ms: int = 0
) -> SkillRun:
    trace = call.trace
    return SkillRun(
        skill_id=call.skill_id,
        version=call.metadata.version,
        role=call.role.name,
        status=status,
        error_code=result.error_code if result else None,
        retries=result.retries if result else trace.retries,
        duration_ms=result.duration_ms if result else duration_ms,
        breaker_state=trace.breaker_state,
        approval_id=trace.approval_id,
        args_hash=trace.args_hash,
        payload=result.payload if result else None,
    )
