"""Fallback: when the metadata's error policy names a `fallback_skill`, ask
it instead, through the whole chain again (so the role must be allowed to
run it, and it is audited as its own call)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar

from skills.contract import ErrorPolicy, SkillRequest, SkillResult
from skills.middleware.call import Call, Next
from skills.middleware.classify import error_code, policy_for

Dispatch = Callable[[SkillRequest], Awaitable[SkillResult]]

# Skills already failing over in this task, so A -> B -> A cannot loop.
_ACTIVE: ContextVar[tuple[str, ...]] = ContextVar("rolegraph_fallback_chain", default=())


class Fallback:
    """Replace a failed result with the fallback skill's, marked in `notice`."""

    def __init__(self, dispatch: Dispatch) -> None:
        self._dispatch = dispatch

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        try:
            return await next(call)
        except Exception as exc:
            policy = policy_for(exc, call.metadata)
            target = policy.fallback_skill if policy and policy.action == "fallback" else None
            if (
                policy is None
                or target is None
                or target in _ACTIVE.get()
                or target == call.skill_id
            ):
                raise
            result = await self._run_fallback(call, target, policy)
            code = error_code(exc)
            if not result.ok:
                call.trace.detail["fallback"] = {"skill": target, "error_code": result.error_code}
                raise
            call.trace.status = "fallback"
            call.trace.error_code = code
            call.trace.detail["fallback"] = {"skill": target, "status": "success"}
            call.trace.add_notice(
                f"fallback: {call.skill_id} failed ({code}); answered by {target}"
            )
            return result.model_copy(update={"notice": call.trace.notice})

    async def _run_fallback(self, call: Call, target: str, policy: ErrorPolicy) -> SkillResult:
        token = _ACTIVE.set((*_ACTIVE.get(), call.skill_id))
        args = policy.args_for_fallback(call.request.args)
        try:
            return await self._dispatch(
                call.request.model_copy(update={"skill_id": target, "args": args})
            )
        finally:
            _ACTIVE.reset(token)
