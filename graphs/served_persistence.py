"""The project's database as the LangGraph server's persistence.

`langgraph.json` points `checkpointer.path` and `store.path` here, so the
threads that `langgraph dev` / Studio run are checkpointed in the project's
Postgres: `rolegraph threads`, `inbox` and `resume` see them and a hard kill
of the server loses no checkpoint. The graph factory (`graphs.studio`) and
the auth handlers (`graphs.auth`) use the same database, opened once per
server process and event loop by `served_database`.

The server enters `checkpointer()` / `store()` once per OS thread as async
context managers; neither closes the shared database on exit, which lives
as long as the process does.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Generic, TypeVar

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.store.postgres.aio import AsyncPostgresStore

from checkpoints.database import resolve_database
from checkpoints.opening import Database, open_database
from checkpoints.settings import DatabaseSettings
from nodes.domain import load_domain

T = TypeVar("T")


async def served_database() -> Database:
    """The project's database for this server process and event loop."""
    return await _DATABASE.get()


@asynccontextmanager
async def checkpointer() -> AsyncIterator[AsyncPostgresSaver]:
    """The saver the server checkpoints its threads with (`checkpointer.path`)."""
    yield (await served_database()).checkpointer


@asynccontextmanager
async def store() -> AsyncIterator[AsyncPostgresStore]:
    """The long-term memory store the server hands the graph (`store.path`)."""
    yield (await served_database()).store


class PerLoop(Generic[T]):
    """One build per event loop, shared by every request on that loop.

    A pool belongs to the loop it was opened on, so a server that runs jobs
    on isolated loops gets one build per loop. What a build opens on its
    stack stays open for the life of the process. A failed build is
    forgotten, so the next request retries it and sees the same error.
    """

    def __init__(self, build: Callable[[AsyncExitStack], Awaitable[T]]) -> None:
        self._build = build
        self._builds: dict[asyncio.AbstractEventLoop, asyncio.Task[T]] = {}
        self._stacks: list[AsyncExitStack] = []

    async def get(self) -> T:
        """The build of the running loop, starting it on first use."""
        loop = asyncio.get_running_loop()
        build = self._builds.get(loop)
        if build is None:
            build = loop.create_task(self._run())
            self._builds[loop] = build
        try:
            return await asyncio.shield(build)
        except BaseException:
            if build.done() and (build.cancelled() or build.exception() is not None):
                self._builds.pop(loop, None)
            raise

    async def _run(self) -> T:
        stack = AsyncExitStack()
        self._stacks.append(stack)  # kept open for the life of the process
        try:
            return await self._build(stack)
        except BaseException:
            self._stacks.remove(stack)
            await stack.aclose()
            raise


async def _open(stack: AsyncExitStack) -> Database:
    # DATABASE_URL picks the server; without it the embedded one under
    # ROLEGRAPH_DATA_DIR starts. Resolving paths and starting the embedded
    # server block, and the dev server rejects blocking calls on its loop.
    env = dict(os.environ)
    target = await asyncio.to_thread(lambda: resolve_database(DatabaseSettings.from_env(env)))
    return await stack.enter_async_context(
        open_database(target=target, migrations=(load_domain().migrations,))
    )


# The server owns this process; this is its one database per event loop.
_DATABASE: PerLoop[Database] = PerLoop(_open)
