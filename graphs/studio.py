"""The graph factory `langgraph.json` names: the support graph for `langgraph dev` / Studio.

The server calls `make_graph` for every request that touches the graph and
attaches its checkpointer and store (the project's own, from
`graphs.served_persistence`), so the graph is compiled without one. Seeding
the database, syncing knowledge and loading the catalog take seconds, so
they happen once per server process and event loop, on the database that
`served_database` opened, and the outbox delivery worker runs beside them.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from contextlib import AsyncExitStack

from checkpoints.opening import Database
from graphs.bound import ContextBoundGraph, bind_context
from graphs.served_persistence import PerLoop, served_database
from graphs.support import build_support_graph
from nodes.bootstrap import build_support_context, load_static_config
from nodes.domain import load_domain
from nodes.models.tiers import ModelTiers
from nodes.tracing import SpanRecorder, install_tracing, tracer
from skills.outbox.worker import background_worker


async def make_graph() -> ContextBoundGraph:
    """The support graph with its context bound, built on the first call."""
    return await _SERVED.get()


async def open_served_graph(db: Database, env: Mapping[str, str]) -> ContextBoundGraph:
    """Seed `db` if empty and bind a fresh context over it.

    The domain's reference data is loaded only into a database without its data.
    """
    domain = load_domain(env=env)
    if domain.seed is not None:
        await domain.seed.seed_if_empty(db.pool)
    # Building model clients and reading the catalog block; the dev server
    # rejects blocking calls on its event loop.
    models = await asyncio.to_thread(ModelTiers.from_env, env)
    static = await asyncio.to_thread(load_static_config, domain)
    ctx = await build_support_context(
        db.pool, env=env, domain=domain, models=models if models.available else None, static=static
    )
    return bind_context(build_support_graph(ctx.roles).compile(store=db.store), ctx)


async def _build(stack: AsyncExitStack) -> ContextBoundGraph:
    env = dict(os.environ)
    db = await served_database()
    graph = await open_served_graph(db, env)
    # Notifications the served graph queues are delivered beside it (no-op without SMTP_HOST).
    await stack.enter_async_context(background_worker(db.pool, env))
    return traced(graph, env)


def traced(graph: ContextBoundGraph, env: Mapping[str, str]) -> ContextBoundGraph:
    """`graph` recording its runs as OpenTelemetry spans when `env` configures an
    exporter (each served run is a turn's root span); `graph` itself otherwise."""
    found = tracer() if install_tracing(env) else None
    if found is None:
        return graph
    return graph.with_config(callbacks=[SpanRecorder(found)])


# The server owns this process and calls the factory per request; this is
# the one process-wide cache of the graph, read by nothing but `make_graph`.
_SERVED: PerLoop[ContextBoundGraph] = PerLoop(_build)
