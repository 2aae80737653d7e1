"""Circuit breaker per skill: after 8 upstream failures in the last 10 calls
the skill fails fast for 60 s, then one probe decides whether it closes.

Only failures that say the dependency is unhealthy count (see
`classify.is_upstream_failure`); a domain refusal is a healthy answer.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from skills.contract import SkillResult
from skills.errors import CircuitOpenError
from skills.middleware.call import Call, Next
from skills.middleware.classify import is_upstream_failure

BreakerState = Literal["closed", "open", "half_open"]
OnTransition = Callable[[Call, BreakerState], Awaitable[None]]

WINDOW = 10
FAILURE_THRESHOLD = 8
OPEN_SECONDS = 60.0


@dataclass
class _SkillBreaker:
    outcomes: deque[bool] = field(default_factory=lambda: deque(maxlen=WINDOW))
    state: BreakerState = "closed"
    opened_at: float = 0.0
    probing: bool = False


async def _ignore(call: Call, state: BreakerState) -> None:
    return None


class CircuitBreaker:
    """One breaker per skill id, shared by every call through this runtime."""

    def __init__(
        self, *, clock: Callable[[], float] = time.monotonic, on_transition: OnTransition = _ignore
    ) -> None:
        self._clock = clock
        self._on_transition = on_transition
        self._breakers: dict[str, _SkillBreaker] = {}

    def state(self, skill_id: str) -> BreakerState:
        return self._breaker(skill_id).state

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        breaker = self._breaker(call.skill_id)
        await self._admit(call, breaker)
        try:
            result = await next(call)
        except BaseException as exc:
            if not isinstance(exc, Exception):
                # Cancelled: the call says nothing about the dependency.
                breaker.probing = False
                raise
            await self._record(call, breaker, ok=not is_upstream_failure(exc))
            raise
        await self._record(call, breaker, ok=True)
        return result

    def _breaker(self, skill_id: str) -> _SkillBreaker:
        return self._breakers.setdefault(skill_id, _SkillBreaker())

    async def _admit(self, call: Call, breaker: _SkillBreaker) -> None:
        if breaker.state == "open":
            elapsed = self._clock() - breaker.opened_at
            if elapsed < OPEN_SECONDS:
                call.trace.breaker_state = "open"
                raise CircuitOpenError(call.skill_id, OPEN_SECONDS - elapsed)
            await self._move(call, breaker, "half_open")
        if breaker.state == "half_open":
            if breaker.probing:
                call.trace.breaker_state = "half_open"
                raise CircuitOpenError(call.skill_id, 0)
            breaker.probing = True

    async def _record(self, call: Call, breaker: _SkillBreaker, *, ok: bool) -> None:
        if breaker.state == "half_open":
            breaker.probing = False
            breaker.outcomes.clear()
            await self._move(call, breaker, "closed" if ok else "open")
        else:
            breaker.outcomes.append(ok)
            if breaker.outcomes.count(False) >= FAILURE_THRESHOLD:
                await self._move(call, breaker, "open")
        call.trace.breaker_state = breaker.state

    async def _move(self, call: Call, breaker: _SkillBreaker, state: BreakerState) -> None:
        breaker.state = state
        if state == "open":
            breaker.opened_at = self._clock()
            breaker.outcomes.clear()
        call.trace.breaker_state = state
        await self._on_transition(call, state)
