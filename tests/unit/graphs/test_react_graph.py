"""The react graph: built over the domain's front role; a one-line error without one."""

from __future__ import annotations

import pytest

from graphs.modes import MODES, compile_mode, mode_of, modes_for
from graphs.react import build_react_graph
from nodes.bootstrap import load_static_config
from nodes.contracts import Understanding
from nodes.domain import load_domain
from nodes.planner.goals import MAX_GOAL_CHARS
from nodes.planner.react_plan import request_goal
from nodes.react_fallback import RECOVERY
from skills.errors import RoleConfigError


@pytest.mark.parametrize("pack", ["retail", "library"])
def test_each_pack_builds_the_react_graph(pack: str) -> None:
    _, roles = load_static_config(load_domain(pack))
    graph = compile_mode("react", roles)
    nodes = graph.get_graph().nodes
    assert mode_of(graph) == "react" and "react" in MODES
    assert {"planner", "dispatch", RECOVERY, "approval", "compose"} <= set(nodes)
    assert "refine" not in nodes


def test_a_domain_without_a_front_role_is_a_one_line_error() -> None:
    _, roles = load_static_config(load_domain("retail"))
    without = {n: r.model_copy(update={"front": False}) for n, r in roles.items()}
    with pytest.raises(RoleConfigError) as info:
        build_react_graph(without)
    assert "front: true" in str(info.value) and "\n" not in str(info.value)
    # Such a domain still serves the other modes.
    assert modes_for(without) == ("support", "plan_execute")
    assert modes_for(roles) == MODES


def _understanding(text: str, **slots: tuple[str, ...]) -> Understanding:
    return Understanding(
        text=text, masked_text=text, lang="en", intents=("order_status",), slots=slots
    )


def test_the_goal_is_the_request_with_what_was_read_from_it() -> None:
    goal = request_goal(_understanding("where is  my\norder #W1234567?", order_ids=("#W1234567",)))
    assert goal == 'where is my order #W1234567? (read from it: {"order_ids": ["#W1234567"]})'


def test_a_long_request_is_cut_to_a_goal() -> None:
    goal = request_goal(_understanding("please " * 200, order_ids=("#W1234567",)))
    assert len(goal) <= MAX_GOAL_CHARS and goal.endswith('["#W1234567"]})')
