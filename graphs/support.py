"""The support graph: wiring only. Node logic lives in `nodes/`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.graph import END, START, StateGraph
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


def build_support_graph(roles: Mapping[str, RoleSpec]) -> StateGraph[Any, Any, Any, Any]:
    """One node per role, plus the request path of ARCHITECTURE.md §1; every run from
    START is one turn of the thread's conversation (`nodes.turn`)."""
    g: StateGraph[Any, Any, Any, Any] = StateGraph(
        SupportState, context_schema=SupportContext, input_schema=SupportInput
    )
    g.add_node("turn", turn, destinations=TURN_NEXT)
    g.add_node("intake", intake)
    g.add_node("remember", remember_node)
    g.add_node("handoff", handoff)
    g.add_node("planner", planner)
    g.add_node("dispatch", dispatch)
    for spec in roles.values():
        g.add_node(node_name(spec.name), make_role_node(spec), input_schema=TaskInput)
        # Through dispatch, which asks the operator first when a call awaits
        # approval: a step that asks nobody costs no superstep.
        g.add_edge(node_name(spec.name), "dispatch")
    g.add_node("approval", approval)
    g.add_node("refine", refine)
    g.add_node("arbitrate", arbitrate)
    g.add_node("compose", compose)
    g.add_node("review", review)
    g.add_node("escalate", escalate_review)
    g.add_node("respond", respond)
    g.add_node("compress", compress)

    role_nodes = [node_name(r) for r in roles]
    g.add_edge(START, "turn")
    g.add_edge("intake", "remember")
    g.add_conditional_edges("remember", after_intake, ["compose", "handoff", "planner"])
    g.add_edge("handoff", "approval")
    after_dispatch = [*role_nodes, "approval", "refine", "arbitrate", "compose"]
    g.add_conditional_edges("planner", send_plan, ["dispatch", *after_dispatch])
    g.add_conditional_edges("dispatch", fan_out, after_dispatch)
    g.add_edge("approval", "dispatch")
    g.add_conditional_edges("refine", after_refine, ["planner", "dispatch"])
    g.add_edge("arbitrate", "compose")
    g.add_edge("compose", "review")
    g.add_conditional_edges("review", after_review, ["respond", "compose", "escalate"])
    g.add_edge("escalate", "approval")
    # After the answer, and so after `remember` stored every turn's facts.
    g.add_conditional_edges("respond", needs_compression, ["compress", END])
    g.add_edge("compress", END)
    return g


def send_plan(state: SupportState) -> list[Send] | str:
    """A turn's first plan goes straight out: nothing has run, so no step can be
    blocked or have its condition tested (conditions read a dependency's
    result). After a replan, dispatch first settles what can no longer run."""
    if after_planner(state) == "compose":
        return "compose"
    if state.get("outcomes") or any(t.when for t in plan_of(state).tasks):
        return "dispatch"
    return fan_out(state)


def fan_out(state: SupportState) -> list[Send] | str:
    """`Send` every ready task to its role node; otherwise pick the next step. A call
    awaiting approval is asked about first, before anything else is sent."""
    if state.get("pending"):
        return "approval"
    ready = ready_tasks(state)
    if ready:
        return [Send(node_name(t.role), task_input(state, t)) for t in ready]
    return when_nothing_ready(state)
