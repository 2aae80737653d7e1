"""The `plan_execute` graph: the plan runs one step at a time, replanned when a step fails.

The same nodes as the support graph (`graphs.support.build_turn_graph`): the turn,
intake, memory, the planner (a model plan validated like every plan, the rules plan
without a model), the role nodes, confirmation and approval, compose and review.
Two things differ. `dispatch` sends only the first ready step in plan order (the
planner's order respects dependencies), so every step sees every result before it;
and a failed step goes to `replan` (`nodes.planner.step_replan`): the model plans the
rest around it, or refinement decides as in the support graph.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.graph import StateGraph
from langgraph.types import Send

from graphs.support import Execution, build_turn_graph
from nodes.dispatch import ready_tasks, task_input
from nodes.planner.step_replan import replan_step
from nodes.role_node import node_name
from nodes.routing import when_nothing_ready
from nodes.state import SupportState
from skills.roles import RoleSpec

RECOVERY = "replan"


def build_plan_execute_graph(roles: Mapping[str, RoleSpec]) -> StateGraph[Any, Any, Any, Any]:
    """The turn graph running its plan step by step."""
    return build_turn_graph(
        roles, Execution(route=one_step, recovery=RECOVERY, recover=replan_step)
    )


def one_step(state: SupportState) -> list[Send] | str:
    """`Send` the first ready step alone; otherwise the next step, failures to `replan`."""
    ready = ready_tasks(state)
    if ready:
        first = ready[0]
        return [Send(node_name(first.role), task_input(state, first))]
    after = when_nothing_ready(state)
    return RECOVERY if after == "refine" else after
