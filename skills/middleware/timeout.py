"""Timeout: each attempt gets `metadata.timeout_seconds` (2.5x the declared
latency when no timeout is declared)."""

from __future__ import annotations

import asyncio

from skills.contract import SkillResult
from skills.errors import SkillTimeout
from skills.middleware.call import Call, Next


class Timeout:
    """Cancel an attempt that overruns and report it as `SkillTimeout`."""

    async def __call__(self, call: Call, next: Next) -> SkillResult:
        seconds = call.metadata.timeout_seconds
        try:
            async with asyncio.timeout(seconds) as scope:
                return await next(call)
        except TimeoutError as exc:
            # Only our own deadline becomes SkillTimeout; a TimeoutError the
            # executor raised itself is its own failure.
            if scope.expired():
                raise SkillTimeout(call.skill_id, seconds) from exc
            raise
