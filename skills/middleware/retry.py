"""Retry transient failures with tenacity: exponential backoff from 0.5 s,
doubling, capped at 30 s, ±20 % jitter, at most 3 retries, and never less
than the upstream's Retry-After.

What is retryable is decided by `classify.is_retryable`: 408/429/5xx,
network errors, timeouts, errors marked `retryable` or whose metadata policy
says `retry`; never validation, 4xx, domain, SSL, JSON or cancellation.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from skills.contract import SkillResult
from skills.middleware.call import Call, Next
from skills.middleware.classify import error_code, is_retryable

Sleep = Callable[[float], Awaitable[None]]

MAX_RETRIES = 3
BASE_SECONDS = 0.5
CAP_SECONDS = 30.0
JITTER = 0.2


def backoff_seconds(retry_number: int, unit_random: float) -> float:
    """Wait before retry `retry_number` (1-based); `unit_random` in [0, 1) sets the jitter."""
    raw = BASE_SECONDS * 2.0 ** (retry_number - 1)
    jittered = raw * (1 - JITTER + 2 * JITTER * unit_random)
    return min(CAP_SECONDS, jittered)


def retry_after(exc: BaseException | None) -> float:
    """The upstream's Retry-After in seconds, 0 when it sent none."""
    value: object = getattr(exc, "retry_after", None)
    return float(value) if isinstance(value, int | float) and value > 0 else 0.0


class Retry:
    """Run the inner chain again while the failure is transient."""

    def __init__(
        self,
        *,
        sleep: Sleep = asyncio.sleep,
        unit_random: Callable[[], float] = random.random,
        max_retries: int = MAX_RETRIES,
    ) -> None:
        self._sleep = sleep
        self._random = unit_random
        self._max_retries = max_retries

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self._max_retries + 1),
            wait=self._wait,
            retry=retry_if_exception(lambda exc: is_retryable(exc, call.metadata)),
            before_sleep=lambda state: _note_retry(call, state),
            sleep=self._sleep,
            reraise=True,
        )
        result: SkillResult = await retrying(next, call)
        return result

    def _wait(self, state: RetryCallState) -> float:
        failure = state.outcome.exception() if state.outcome else None
        return max(backoff_seconds(state.attempt_number, self._random()), retry_after(failure))


def _note_retry(call: Call, state: RetryCallState) -> None:
    call.trace.retries = state.attempt_number
    failure = state.outcome.exception() if state.outcome else None
    waits = call.trace.detail.setdefault("retry_waits", [])
    waits.append(
        {"error_code": error_code(failure) if failure else None, "wait": state.upcoming_sleep}
    )
