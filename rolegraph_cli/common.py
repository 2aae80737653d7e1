"""Shared plumbing for CLI commands: run a coroutine, report user errors."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import TypeVar

from checkpoints.errors import RolegraphError
from checkpoints.faults import CLIENT_FAULTS
from checkpoints.opening import Database, open_database
from checkpoints.pool import database_fault
from nodes.domain import load_domain

T = TypeVar("T")

EXIT_INTERRUPTED = 130
"""Ctrl-C, as shells report a SIGINT."""


def run_command(action: Callable[[], Awaitable[int]]) -> int:
    """Run an async command; user errors and database faults become one line and exit 2."""
    try:
        return asyncio.run(_guarded(action))
    except RolegraphError as exc:
        return _report(exc)
    except CLIENT_FAULTS as exc:
        # A connection terminated mid-command, a restarted server, a pool
        # timeout: nothing the user typed, and nothing a traceback would help.
        return _report(database_fault(exc))
    except KeyboardInterrupt:
        print("rolegraph: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def open_project_database() -> AbstractAsyncContextManager[Database]:
    """The project's database, with the chosen domain's tables migrated too."""
    return open_database(migrations=(load_domain().migrations,))


def _report(exc: RolegraphError) -> int:
    print(f"rolegraph: error: {exc}", file=sys.stderr)
    return exc.exit_code


async def _guarded(action: Callable[[], Awaitable[int]]) -> int:
    return await action()
