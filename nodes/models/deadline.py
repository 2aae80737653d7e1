"""The per-request deadline for model calls (ROLEGRAPH_REQUEST_TIMEOUT).

A request's model calls — intake's reading, then the planner's plan — share
one budget. Intake starts it (every request passes intake first), later
nodes of the same thread read what is left. Kept in-process by thread id:
a thread is served by one process at a time, and a request continued in
another process after a crash simply starts a fresh budget there.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class RequestClock:
    """When each thread's current request started its model budget."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._started: dict[str, float] = {}

    def start(self, key: str | None, budget_s: float) -> float:
        """Start a new request's budget now; returns its deadline (clock seconds)."""
        now = self._clock()
        # Budgets that ended can never be asked for again: forget them.
        self._started = {k: t for k, t in self._started.items() if now - t < budget_s}
        if key is not None:
            self._started[key] = now
        return now + budget_s

    def deadline(self, key: str | None, budget_s: float) -> float:
        """The deadline of the thread's current request, started now if it has none."""
        started = self._started.get(key) if key is not None else None
        if started is None:
            return self.start(key, budget_s)
        return started + budget_s

    def now(self) -> float:
        """The clock the deadlines are measured on."""
        return self._clock()
