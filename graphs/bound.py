"""A compiled graph that carries its own run-scoped context.

The LangGraph server (`langgraph dev`, Studio) can only pass JSON as a run's
`context`, but the support graph's context holds a connection pool and a
skill runtime. A graph it serves therefore brings its context along: every
run that passes no context gets the bound one. A caller that passes a
context object explicitly still wins, so tests can swap it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Any

from langgraph.graph.state import CompiledStateGraph

from checkpoints.errors import InvalidArgument


class ContextBoundGraph(CompiledStateGraph[Any, Any, Any, Any]):
    """`CompiledStateGraph` whose runs default to `bound_context`.

    `copy()` (which the server calls to attach its checkpointer and store)
    rebuilds the object from its attributes, so `bound_context` survives it.
    """

    def __init__(self, *, bound_context: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bound_context = bound_context

    def resolve_context(self, context: Any) -> Any:
        """The context a run gets: the bound one unless a real object is passed."""
        if context is None or (isinstance(context, Mapping) and not context):
            return self.bound_context
        if isinstance(context, Mapping):
            raise InvalidArgument(
                f"a JSON context ({', '.join(sorted(context))}) cannot replace the context this "
                "graph was bound to at start-up; send the run without a context"
            )
        return context

    async def astream(
        self, input: Any, config: Any = None, *, context: Any = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        # Every async entry point (ainvoke, astream_events, the server's
        # runner) funnels through astream, so this is the one place to bind.
        stream = super().astream(input, config, context=self.resolve_context(context), **kwargs)
        async for chunk in stream:
            yield chunk

    def stream(
        self, input: Any, config: Any = None, *, context: Any = None, **kwargs: Any
    ) -> Iterator[Any]:
        yield from super().stream(input, config, context=self.resolve_context(context), **kwargs)


def bind_context(graph: CompiledStateGraph[Any, Any, Any, Any], context: Any) -> ContextBoundGraph:
    """The same compiled graph (same nodes, checkpointer, store) bound to `context`.

    The bound graph declares no context schema: nothing in the context can
    be set from JSON, and the server (and Studio's assistant form) would
    otherwise fail to build a JSON schema for a connection pool.
    """
    attrs = {k: v for k, v in graph.__dict__.items() if k != "__orig_class__"}
    attrs["context_schema"] = None
    return ContextBoundGraph(bound_context=context, **attrs)
