"""Crash points for the kill -9 campaign (`make chaos`) and its tests.

`ROLEGRAPH_CRASH_AT=name` (or `name:N` for the N-th time the point is
reached) makes the process SIGKILL itself at that point, so the campaign can
kill inside windows no outside signal can hit reliably (between a write's
commit and the next step). This is the one place that reads the
environment outside an entry point: a test hook must work in every process
the campaign starts, whatever entry point that process uses.
"""

from __future__ import annotations

import os
import signal

_hits: dict[str, int] = {}


def crash_point(name: str) -> None:
    """SIGKILL this process if the campaign asked to die here."""
    target = os.environ.get("ROLEGRAPH_CRASH_AT")
    if not target:
        return
    point, _, nth = target.partition(":")
    if point != name:
        return
    _hits[name] = _hits.get(name, 0) + 1
    if _hits[name] >= int(nth or "1"):
        os.kill(os.getpid(), signal.SIGKILL)
