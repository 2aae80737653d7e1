"""A circuit breaker per model tier, in-process: an outage costs one timeout, not one per request.

A tier's breaker opens after `threshold` consecutive failures (HTTP errors,
refused connections, timeouts cut short by the request deadline) or after
one full per-call timeout: waiting is what a hanging endpoint costs every
request, so one wait is evidence enough. While open the ladder skips the
tier without calling it; after `cooldown_s` one probe call is let through
(half-open) and its outcome closes or re-opens the breaker.

The skill runtime's breaker (`skills.middleware.breaker`) is a middleware
link over skill calls with a failure-rate window; a model tier needs neither.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

BreakerState = Literal["closed", "open", "half_open"]
THRESHOLD = 3
COOLDOWN_S = 30.0


@dataclass
class _Tier:
    failures: int = 0
    opened_at: float | None = None
    probing: bool = False


class ModelBreakers:
    """Breakers by key (a model tier), shared by every request of this process."""

    def __init__(
        self,
        *,
        threshold: int = THRESHOLD,
        cooldown_s: float = COOLDOWN_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._threshold = threshold
        self._cooldown_s = cooldown_s
        self._clock = clock
        self._tiers: dict[str, _Tier] = {}

    def state(self, key: str) -> BreakerState:
        """closed, open, or half_open (cool-down over, a probe may run)."""
        tier = self._tiers.get(key)
        if tier is None or tier.opened_at is None:
            return "closed"
        if self._clock() - tier.opened_at < self._cooldown_s:
            return "open"
        return "half_open"

    def admit(self, key: str) -> bool:
        """Whether a call may go out now; in half-open only one probe at a time."""
        state = self.state(key)
        if state == "closed":
            return True
        tier = self._tiers[key]
        if state == "open" or tier.probing:
            return False
        tier.probing = True
        return True

    def succeeded(self, key: str) -> None:
        """The endpoint answered: close."""
        self._tiers[key] = _Tier()

    def failed(self, key: str, *, opens: bool = False) -> None:
        """The endpoint failed; `opens` for a failure that is enough on its own."""
        tier = self._tiers.setdefault(key, _Tier())
        was_probe = tier.probing
        tier.probing = False
        tier.failures += 1
        if opens or was_probe or tier.failures >= self._threshold:
            tier.opened_at = self._clock()

    def release(self, key: str) -> None:
        """An admitted call did not run (cancelled, no time left): no verdict."""
        tier = self._tiers.get(key)
        if tier is not None:
            tier.probing = False
