"""A wall-clock guard for tests that a pattern reads hostile input in linear time.

A catastrophically backtracking regular expression holds the GIL inside `re`, so a thread
timer cannot stop it; SIGALRM interrupts it between bytecodes and fails the test instead of
hanging the suite."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def within_seconds(seconds: int, what: str) -> Iterator[None]:
    """Raise TimeoutError if the block takes longer than `seconds` (main thread only)."""

    def too_slow(*_: object) -> None:
        raise TimeoutError(f"{what} took over {seconds} s: it backtracks")

    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
