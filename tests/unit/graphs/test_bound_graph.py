"""A context-bound graph runs with its bound context unless given a real one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from checkpoints.errors import InvalidArgument
from graphs.bound import ContextBoundGraph, bind_context


@dataclass(frozen=True)
class Ctx:
    name: str
    pool: Any = None  # something JSON cannot carry, like the real context's pool


class State(TypedDict, total=False):
    seen: str


def _node(state: State, runtime: Runtime[Ctx]) -> dict[str, Any]:
    return {"seen": runtime.context.name}


def _graph() -> Any:
    g: StateGraph[Any, Any, Any, Any] = StateGraph(State, context_schema=Ctx)
    g.add_node("read", _node)
    g.add_edge(START, "read")
    g.add_edge("read", END)
    return g.compile()


BOUND = Ctx("bound", pool=object())


async def test_runs_without_context_get_the_bound_one() -> None:
    graph = bind_context(_graph(), BOUND)
    assert (await graph.ainvoke({}))["seen"] == "bound"
    assert (await graph.ainvoke({}, context={}))["seen"] == "bound"  # what a server sends
    assert graph.invoke({})["seen"] == "bound"
    events = [e async for e in graph.astream_events({}, version="v2")]
    assert events[-1]["data"]["output"]["seen"] == "bound"


async def test_an_explicit_context_object_wins() -> None:
    graph = bind_context(_graph(), BOUND)
    assert (await graph.ainvoke({}, context=Ctx("mine")))["seen"] == "mine"


async def test_json_context_is_refused_with_a_fix() -> None:
    graph = bind_context(_graph(), BOUND)
    with pytest.raises(InvalidArgument, match="send the run without a context"):
        await graph.ainvoke({}, context={"name": "json"})


async def test_copy_keeps_the_binding_and_takes_a_checkpointer() -> None:
    # The server attaches its checkpointer and store with copy(update=...).
    graph = bind_context(_graph(), BOUND).copy(update={"checkpointer": InMemorySaver()})
    assert isinstance(graph, ContextBoundGraph) and graph.bound_context is BOUND
    config = {"configurable": {"thread_id": "t1"}}
    assert (await graph.ainvoke({}, config))["seen"] == "bound"
    assert (await graph.aget_state(config)).values["seen"] == "bound"


def test_no_context_schema_is_advertised() -> None:
    unbound = _graph()
    assert unbound.get_context_jsonschema() is not None
    bound = bind_context(unbound, BOUND)
    assert bound.get_context_jsonschema() is None
    assert unbound.context_schema is Ctx  # the original graph is untouched
