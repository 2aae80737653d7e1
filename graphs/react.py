"""The `react` graph: one agent, the front role's, pursues the request in a tool-calling loop.

The same nodes as the support graph (`graphs.support.build_turn_graph`): the turn,
intake, memory, the role nodes and the skill runtime, confirmation and approval,
compose and review. Two things differ. The planner hands the customer's request to
the domain's front role (`front: true` in its role file) as one goal task
(`nodes.planner.react_plan`), which its role agent pursues in the bounded ReAct loop
of `nodes.agent` — without a model for that role, the turn is planned as in
`support`. And a goal the agent did not carry, having changed nothing, goes to
`fallback` (`nodes.react_fallback`): the turn runs the rules plan instead, so a weak
model never leaves the answer worse than the rules tier.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.graph import StateGraph

from graphs.support import Execution, build_turn_graph
from nodes.planner.react_plan import react_planner
from nodes.react_fallback import RECOVERY, react_recover, react_route
from skills.errors import RoleConfigError
from skills.roles import RoleSpec, front_role

NO_FRONT_ROLE = "the react mode needs a front role: set front: true in one role file of the domain"


def build_react_graph(roles: Mapping[str, RoleSpec]) -> StateGraph[Any, Any, Any, Any]:
    """The turn graph whose plan is the front role's goal; a one-line error without one."""
    if front_role(roles) is None:
        raise RoleConfigError(NO_FRONT_ROLE)
    execution = Execution(
        route=react_route, recovery=RECOVERY, recover=react_recover, plan=react_planner
    )
    return build_turn_graph(roles, execution)
