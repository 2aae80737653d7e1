"""Execution modes: which graph runs a thread.

A mode names a graph builder; every builder takes the roles and wires the same
nodes (`graphs.support.build_turn_graph`). A compiled graph carries its mode in
its config's metadata, so every checkpoint it writes records it (`MODE_KEY`):
a thread is always continued by the graph of the mode that started it
(`thread_mode`; `graphs.api` picks that graph before every run, and the CLI
refuses a `--mode` that is not the thread's, `resolve_mode`).

The modes: `support` (every ready step at once), `plan_execute` (one step at a
time, replanned on failure) and `react` (the front role's agent pursues the
request in a tool-calling loop, the rules plan when it does not carry it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from weakref import WeakKeyDictionary

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore
from langgraph.types import Checkpointer

from checkpoints.errors import InvalidArgument
from graphs.plan_execute import build_plan_execute_graph
from graphs.react import build_react_graph
from graphs.support import build_support_graph
from skills.roles import RoleSpec, front_role

Builder = Callable[[Mapping[str, RoleSpec]], StateGraph[Any, Any, Any, Any]]
DEFAULT_MODE = "support"
MODE_KEY = "rolegraph_mode"
"""The checkpoint metadata key naming the mode of the graph that wrote it."""
BUILDERS: Mapping[str, Builder] = {
    "support": build_support_graph,
    "plan_execute": build_plan_execute_graph,
    "react": build_react_graph,
}
MODES = tuple(BUILDERS)


def modes_for(roles: Mapping[str, RoleSpec]) -> tuple[str, ...]:
    """The modes a domain with `roles` can run: `react` needs its front role."""
    return tuple(m for m in MODES if m != "react" or front_role(roles) is not None)


def checked_mode(mode: str | None) -> str:
    """`mode` if it is one (the default when None); else a one-line error naming the modes."""
    if mode is None:
        return DEFAULT_MODE
    if mode not in BUILDERS:
        raise InvalidArgument(f"unknown mode {str(mode)[:40]!r}; choose one of: {', '.join(MODES)}")
    return mode


def build_graph(mode: str, roles: Mapping[str, RoleSpec]) -> StateGraph[Any, Any, Any, Any]:
    """The uncompiled graph of `mode`."""
    return BUILDERS[checked_mode(mode)](roles)


def compile_mode(
    mode: str,
    roles: Mapping[str, RoleSpec],
    checkpointer: Checkpointer = None,
    store: BaseStore | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """`mode`'s graph compiled, every checkpoint it writes stamped with `mode`."""
    graph = build_graph(mode, roles).compile(checkpointer=checkpointer, store=store)
    return stamped(graph, mode)


def stamped(
    graph: CompiledStateGraph[Any, Any, Any, Any], mode: str
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """`graph` whose runs record `mode` in their checkpoints' metadata."""
    return graph.with_config(metadata={MODE_KEY: mode})


def mode_of(graph: Any) -> str:
    """The mode a compiled graph runs (the default for a graph compiled without one)."""
    found = (getattr(graph, "config", None) or {}).get("metadata", {}).get(MODE_KEY)
    return found if isinstance(found, str) else DEFAULT_MODE


async def thread_mode(checkpointer: BaseCheckpointSaver[Any], thread_id: str) -> str | None:
    """The mode that started `thread_id`, None for a thread without checkpoints.

    A thread whose checkpoints name no mode was started before modes: `support`.
    """
    saved = await checkpointer.aget_tuple({"configurable": {"thread_id": thread_id}})
    if saved is None:
        return None
    found = (saved.metadata or {}).get(MODE_KEY)
    return found if isinstance(found, str) else DEFAULT_MODE


def sibling(
    graph: CompiledStateGraph[Any, Any, Any, Any], mode: str, roles: Mapping[str, RoleSpec]
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """`mode`'s graph over `graph`'s checkpointer and store, compiled once per `graph`."""
    known = _SIBLINGS.setdefault(graph, {})
    if mode not in known:
        known[mode] = compile_mode(mode, roles, graph.checkpointer, graph.store)
    return known[mode]


# Graphs compiled on demand for threads of another mode than the graph a caller holds;
# they go with the graph they were compiled beside.
_SIBLINGS: WeakKeyDictionary[Any, dict[str, CompiledStateGraph[Any, Any, Any, Any]]] = (
    WeakKeyDictionary()
)


def mismatch(thread_id: str, started: str, asked: str) -> InvalidArgument:
    """The one-line error of a run asking another mode than the thread's."""
    return InvalidArgument(
        f"thread {thread_id!r} runs in mode {started!r}, not {asked!r}; continue it with"
        f" --mode {started} (or without --mode)"
    )


async def resolve_mode(
    checkpointer: BaseCheckpointSaver[Any], thread_id: str | None, asked: str | None
) -> str:
    """The mode to run `thread_id` in: its own if it has one (`asked` must agree), else
    `asked` (the default when None)."""
    mode = checked_mode(asked)
    started = await thread_mode(checkpointer, thread_id) if thread_id else None
    if started is None:
        return mode
    if asked is not None and mode != started:
        raise mismatch(thread_id or "", started, mode)
    return started
