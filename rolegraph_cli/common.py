"""Shared plumbing for CLI commands: run a coroutine, report user errors."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

from checkpoints.errors import RolegraphError

T = TypeVar("T")


def run_command(action: Callable[[], Awaitable[int]]) -> int:
    """Run an async command; a RolegraphError becomes one line and exit 2."""
    try:
        return asyncio.run(_guarded(action))
    except RolegraphError as exc:
        print(f"rolegraph: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("rolegraph: interrupted", file=sys.stderr)
        return 130


async def _guarded(action: Callable[[], Awaitable[int]]) -> int:
    return await action()
