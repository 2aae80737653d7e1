"""The graph factory `langgraph.json` names: the support graph for `langgraph dev` / Studio.

The server calls `make_graph` for every request that touches the graph and
attaches its own checkpointer and store, so the graph is compiled without
one. Opening the database, seeding it, syncing knowledge and loading the
catalog take seconds, so they happen once per server process and event
loop; the pool then lives as long as the server process does.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from contextlib import AsyncExitStack

from checkpoints.database import resolve_database
from checkpoints.retail.seed import ensure_reference_data
from checkpoints.runtime import open_database
from checkpoints.settings import DatabaseSettings
from graphs.bound import ContextBoundGraph, bind_context
from graphs.support import build_support_graph
from nodes.bootstrap import build_support_context, load_static_config
from nodes.models.tiers import ModelTiers


async def make_graph() -> ContextBoundGraph:
    """The support graph with its context bound, built on the first call."""
    return await _SERVED.get()


async def open_served_graph(stack: AsyncExitStack, env: Mapping[str, str]) -> ContextBoundGraph:
    """Open the database on `stack`, seed it if empty, and bind a fresh context.

    DATABASE_URL picks the server; without it the embedded one under
    ROLEGRAPH_DATA_DIR starts. The reference data is loaded only into an
    empty database.
    """
    # Resolving paths, starting the embedded server and building model
    # clients block; the dev server rejects blocking calls on its event loop.
    target = await asyncio.to_thread(lambda: resolve_database(DatabaseSettings.from_env(env)))
    db = await stack.enter_async_context(open_database(target=target))
    async with db.pool.connection() as conn:
        await ensure_reference_data(conn)
    models = await asyncio.to_thread(ModelTiers.from_env, env)
    static = await asyncio.to_thread(load_static_config)  # reads the catalog and role files
    ctx = await build_support_context(
        db.pool, env=env, models=models if models.available else None, static=static
    )
    return bind_context(build_support_graph(ctx.roles).compile(), ctx)


class _ServedGraphs:
    """One build per event loop, shared by every request on that loop.

    A pool belongs to the loop it was opened on, so a server that runs
    jobs on isolated loops gets one build per loop. A failed build is
    forgotten, so the next request retries it and sees the same error.
    """

    def __init__(self) -> None:
        self._builds: dict[asyncio.AbstractEventLoop, asyncio.Task[ContextBoundGraph]] = {}
        self._stacks: list[AsyncExitStack] = []

    async def get(self) -> ContextBoundGraph:
        loop = asyncio.get_running_loop()
        build = self._builds.get(loop)
        if build is None:
            build = loop.create_task(self._build())
            self._builds[loop] = build
        try:
            return await asyncio.shield(build)
        except BaseException:
            if build.done() and (build.cancelled() or build.exception() is not None):
                self._builds.pop(loop, None)
            raise

    async def _build(self) -> ContextBoundGraph:
        stack = AsyncExitStack()
        self._stacks.append(stack)  # kept open for the life of the process
        env = dict(os.environ)
        try:
            return await open_served_graph(stack, env)
        except BaseException:
            self._stacks.remove(stack)
            await stack.aclose()
            raise


# The server owns this process and calls the factory per request; this is
# the one process-wide cache, read by nothing but `make_graph`.
_SERVED = _ServedGraphs()
