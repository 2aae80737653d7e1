"""The support graph: wiring only. Node logic lives in `nodes/`.

`build_turn_graph` is the wiring every execution mode shares (conversation
memory, intake, planning, role nodes, approvals, refinement, answers); a
mode differs only in its `Execution`: how the graph leaves `dispatch` and
which node recovers from failed steps (`graphs.modes` names the modes).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

from nodes.approval import approval
from nodes.arbitrate import arbitrate
from nodes.compose import compose
from nodes.context import SupportContext
from nodes.conversation.node import compress, needs_compression
from nodes.dispatch import dispatch, ready_tasks, task_input
from nodes.handoff import escalate_review, handoff
from nodes.intake.node import intake
from nodes.memory.node import remember_node
from nodes.planner.node import planner
from nodes.refine import refine
from nodes.review import respond, review
from nodes.role_node import make_role_node, node_name
from nodes.routing import (
    after_intake,
    after_planner,
    after_refine,
    after_review,
    when_nothing_ready,
)
from nodes.state import SupportInput, SupportState, TaskInput, plan_of
from nodes.turn import TURN_NEXT, turn
from skills.roles import RoleSpec

P = ParamSpec("P")
R = TypeVar("R")
Route = Callable[[SupportState], list[Send] | str]
Recover = Callable[[SupportState, Runtime[SupportContext]], Awaitable[dict[str, Any]]]
"""A node that recovers from failed steps (`nodes.refine.refine` and its kind)."""
Plan = Callable[[SupportState, Runtime[SupportContext]], Awaitable[Any]]
"""The planner node (`nodes.planner.node.planner` and its kind)."""


@dataclass(frozen=True)
class Execution:
    """What one execution mode wires differently: `route` leaves `dispatch` (the `Send`s of
    the tasks it runs, or the next step's name), and `recovery` (the node `route` names when
    steps failed) runs `recover`, after which `after_refine` goes on. `plan` is the
    planner node's function (the plan of the turn, and its replans)."""

    route: Route
    recovery: str = "refine"
    recover: Recover = refine
    plan: Plan = planner


def build_support_graph(roles: Mapping[str, RoleSpec]) -> StateGraph[Any, Any, Any, Any]:
    """One node per role, plus the request path of ARCHITECTURE.md §1; every run from
    START is one turn of the thread's conversation (`nodes.turn`). Every ready task
    runs at once (a `Send` each)."""
    return build_turn_graph(roles, Execution(route=fan_out))


def build_turn_graph(
    roles: Mapping[str, RoleSpec], execution: Execution
) -> StateGraph[Any, Any, Any, Any]:
    """The graph of one turn with `execution`'s way of running the plan."""
    g: StateGraph[Any, Any, Any, Any] = StateGraph(
        SupportState, context_schema=SupportContext, input_schema=SupportInput
    )
    _add_nodes(g, roles, execution)
    role_nodes = [node_name(r) for r in roles]
    g.add_edge(START, "turn")
    g.add_edge("intake", "remember")
    g.add_conditional_edges("remember", on_loop(after_intake), ["compose", "handoff", "planner"])
    g.add_edge("handoff", "approval")
    after_dispatch = [*role_nodes, "approval", execution.recovery, "arbitrate", "compose"]
    asking = _asking_first(execution.route)
    planned, route = on_loop(_sending_plan(asking)), on_loop(asking)
    g.add_conditional_edges("planner", planned, ["dispatch", *after_dispatch])
    g.add_conditional_edges("dispatch", route, after_dispatch)
    g.add_edge("approval", "dispatch")
    g.add_conditional_edges(execution.recovery, on_loop(after_refine), ["planner", "dispatch"])
    g.add_edge("arbitrate", "compose")
    g.add_edge("compose", "review")
    g.add_conditional_edges("review", on_loop(after_review), ["respond", "compose", "escalate"])
    g.add_edge("escalate", "approval")
    # After the answer, and so after `remember` stored every turn's facts.
    g.add_conditional_edges("respond", on_loop(needs_compression), ["compress", END])
    g.add_edge("compress", END)
    return g


def _asking_first(route: Route) -> Route:
    """`route`, after the operator's approval when a call awaits one: nothing else is
    sent before the answer."""

    def routed(state: SupportState) -> list[Send] | str:
        return "approval" if state.get("pending") else route(state)

    return routed


def _sending_plan(route: Route) -> Route:
    """A turn's first plan goes straight out by `route`: nothing has run, so no step
    can be blocked or have its condition tested (conditions read a dependency's
    result). After a replan, dispatch first settles what can no longer run."""

    def planned(state: SupportState) -> list[Send] | str:
        if after_planner(state) == "compose":
            return "compose"
        if state.get("outcomes") or any(t.when for t in plan_of(state).tasks):
            return "dispatch"
        return route(state)

    return planned


def _add_nodes(
    g: StateGraph[Any, Any, Any, Any], roles: Mapping[str, RoleSpec], execution: Execution
) -> None:
    g.add_node("turn", turn, destinations=TURN_NEXT)
    g.add_node("intake", intake)
    g.add_node("remember", remember_node)
    g.add_node("handoff", on_loop(handoff))
    g.add_node("planner", execution.plan)  # type: ignore[arg-type]
    g.add_node("dispatch", on_loop(dispatch))
    for spec in roles.values():
        g.add_node(node_name(spec.name), make_role_node(spec), input_schema=TaskInput)
        # Through dispatch, which asks the operator first when a call awaits
        # approval: a step that asks nobody costs no superstep.
        g.add_edge(node_name(spec.name), "dispatch")
    g.add_node("approval", approval)
    g.add_node(execution.recovery, execution.recover)  # type: ignore[arg-type]
    g.add_node("arbitrate", arbitrate)
    g.add_node("compose", compose)
    g.add_node("review", review)
    g.add_node("escalate", on_loop(escalate_review))
    g.add_node("respond", on_loop(respond))
    g.add_node("compress", compress)


def on_loop(fn: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """`fn` as a coroutine function. LangGraph runs a plain function in a worker
    thread, a hand-off to the thread pool and back on every call; the graph's plain
    nodes and routers only read the state and compute, so they run on the loop."""
    if inspect.iscoroutinefunction(fn):
        return fn

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        return fn(*args, **kwargs)

    return run


def fan_out(state: SupportState) -> list[Send] | str:
    """`Send` every ready task to its role node; otherwise pick the next step."""
    ready = ready_tasks(state)
    if ready:
        return [Send(node_name(t.role), task_input(state, t)) for t in ready]
    return when_nothing_ready(state)
