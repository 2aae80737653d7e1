"""The graph factories `langgraph.json` names, one per execution mode, for `langgraph dev` / Studio.

The server calls `make_graph` for every request that touches the graph and
attaches its checkpointer and store (the project's own, from
`graphs.served_persistence`), so the graph is compiled without one. Seeding
the database, syncing knowledge and loading the catalog take seconds, so
they happen once per server process and event loop, on the database that
`served_database` opened, and the outbox delivery worker runs beside them.
Every mode's graph (`graphs.modes`) is bound to that one context.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import merge_configs

from checkpoints.opening import Database
from graphs.bound import ContextBoundGraph, bind_context
from graphs.modes import DEFAULT_MODE, compile_mode, mode_of, modes_for
from graphs.react import NO_FRONT_ROLE
from graphs.served_persistence import PerLoop, served_database
from nodes.bootstrap import build_support_context, load_static_config
from nodes.domain import load_domain
from nodes.models.tiers import ModelTiers
from nodes.tracing import TURN_TRACE_KEY, TurnTrace, install_tracing, turn_trace
from skills.errors import RoleConfigError
from skills.outbox.worker import background_worker


async def make_graph() -> ContextBoundGraph:
    """The support graph with its context bound, built on the first call."""
    return (await _SERVED.get())["support"]


async def make_plan_execute_graph() -> ContextBoundGraph:
    """The plan_execute graph, bound to the same context as the support graph."""
    return (await _SERVED.get())["plan_execute"]


async def make_react_graph() -> ContextBoundGraph:
    """The react graph, bound to the same context as the support graph; a one-line
    error for a domain without a front role."""
    served = await _SERVED.get()
    if "react" not in served:
        raise RoleConfigError(NO_FRONT_ROLE)
    return served["react"]


FACTORIES = {
    "support": make_graph,
    "plan_execute": make_plan_execute_graph,
    "react": make_react_graph,
}
"""The factory of each mode (`langgraph.json` names each under the mode's name)."""


async def open_served_graph(
    db: Database, env: Mapping[str, str], mode: str = DEFAULT_MODE
) -> ContextBoundGraph:
    """`mode`'s graph over `db` (seeded if empty) with a fresh context bound."""
    return (await open_served_graphs(db, env))[mode]


async def open_served_graphs(db: Database, env: Mapping[str, str]) -> dict[str, ContextBoundGraph]:
    """Seed `db` if empty and bind one fresh context to every mode's graph (of the
    modes the domain can run, `graphs.modes.modes_for`).

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
    modes = modes_for(ctx.roles)
    return {m: bind_context(compile_mode(m, ctx.roles, store=db.store), ctx) for m in modes}


async def _build(stack: AsyncExitStack) -> dict[str, ContextBoundGraph]:
    env = dict(os.environ)
    db = await served_database()
    graphs = await open_served_graphs(db, env)
    # Notifications the served graphs queue are delivered beside them (not started while
    # neither SMTP_HOST nor ROLEGRAPH_APPROVAL_WEBHOOK is set).
    await stack.enter_async_context(background_worker(db.pool, env))
    return {mode: traced(graph, env) for mode, graph in graphs.items()}


def traced(graph: ContextBoundGraph, env: Mapping[str, str]) -> ContextBoundGraph:
    """`graph` recording each served run as a turn's spans when `env` configures an
    OTLP exporter; `graph` itself otherwise."""
    if not install_tracing(env):
        return graph
    attrs = {k: v for k, v in graph.__dict__.items() if k != "__orig_class__"}
    return TracedGraph(**attrs)


class TracedGraph(ContextBoundGraph):
    """A served graph whose every run is one root span, as `graphs.api` runs are:
    a resumed run (an approval answered through the server) links to the run
    that asked, by the `traceparent` its checkpoints keep."""

    async def astream(
        self, input: Any, config: Any = None, *, context: Any = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        given: RunnableConfig = config or RunnableConfig()
        thread_id = str(given.get("configurable", {}).get("thread_id") or "")
        resumed = bool(thread_id) and not isinstance(input, Mapping)
        origin = await self._origin(given) if resumed else None
        with turn_trace(
            thread_id=thread_id, mode=mode_of(self), customer=None, resumed_from=origin
        ) as t:
            # Merged, not `ensure_config`ed: the server's own defaults (recursion
            # limit, ...) must stay as they would be without tracing.
            extra: RunnableConfig = {"callbacks": t.callbacks, "metadata": t.metadata}
            stream = super().astream(input, merge_configs(given, extra), context=context, **kwargs)
            async for chunk in stream:
                yield chunk
            if thread_id:
                await self._finish(t, given)

    async def _finish(self, traced: TurnTrace, config: RunnableConfig) -> None:
        """Name the audit id, customer and stop of the run on its root span."""
        snapshot = await self.aget_state(config)
        values = snapshot.values or {}
        status = "interrupted" if snapshot.interrupts else str(values.get("status") or "")
        traced.finish(
            audit_id=values.get("audit_id"), customer=values.get("customer"), status=status
        )

    async def _origin(self, config: RunnableConfig) -> str | None:
        found = ((await self.aget_state(config)).metadata or {}).get(TURN_TRACE_KEY)
        return found if isinstance(found, str) else None


# The server owns this process and calls a factory per request; this is the one
# process-wide cache of the graphs, read by nothing but the factories.
_SERVED: PerLoop[dict[str, ContextBoundGraph]] = PerLoop(_build)
