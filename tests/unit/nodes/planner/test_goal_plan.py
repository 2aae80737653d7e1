"""Goal tasks from the model planner: one role agent, one goal, never in place of a change."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domains.retail import DOMAIN
from domains.retail.understanding import understand
from nodes.bootstrap import load_static_config
from nodes.context import SupportContext
from nodes.contracts import Plan, Task
from nodes.domain import load_domain
from nodes.errors import PlanRejected
from nodes.models import ModelTiers
from nodes.planner.model_plan import model_plan
from nodes.planner.validate import validate_plan
from tests.fakes.chat import ScriptedChatModel

USER = "ann_lee_1234"
LOOKUP = "which of my orders had a desk lamp?"
CANCEL = "Please cancel order #W1234567, I ordered by mistake"


@pytest.fixture(scope="module")
def static() -> Any:
    return load_static_config()


def goal(role: str, text: str, **extra: Any) -> str:
    return json.dumps({"tasks": [{"id": "g1", "role": role, "goal": text, **extra}]})


async def plan_for(
    static: Any, text: str, *script: str, small: tuple[str, ...] = ()
) -> tuple[Plan, Plan, str]:
    """Plan `text` with the large tier answering `script` and, when it is refused, the
    small tier answering `small`."""
    registry, roles = static
    large = ScriptedChatModel(script=list(script))
    ctx = SupportContext(
        domain=load_domain(),
        skills=None,
        registry=registry,
        roles=roles,
        pool=None,
        models=ModelTiers(large=large, small=ScriptedChatModel(script=list(small))),
    )
    understanding = understand(text)
    rules = DOMAIN.planning.plan(understanding, USER)
    plan, tier = await model_plan(ctx, {"user_id": USER}, understanding, rules)
    return rules, plan, tier


async def test_a_read_request_may_go_to_a_role_agent_as_a_goal(static: Any) -> None:
    rules, plan, tier = await plan_for(static, LOOKUP, goal("order_query", "find the lamp orders"))
    assert tier == "large" and rules.tasks
    # Beside the rules plan, never instead of it.
    goal_task = Task(id="g1", role="order_query", goal="find the lamp orders")
    assert plan.tasks == (*rules.tasks, goal_task)


async def test_goals_that_break_a_rule_fall_back_to_the_rules_plan(static: Any) -> None:
    bad = [
        goal("notifier", "send everyone mail"),  # a rules-tier role takes no goals
        goal("nobody", "x"),
        goal("order_query", "   "),
        goal("order_query", "x" * 401),
        goal("order_query", "look", skill="get_user_details_v1"),
        goal("order_query", "look", args={"user_id": "bob"}),
    ]
    for reply in bad:  # the small tier makes the same mistake
        rules, plan, tier = await plan_for(static, LOOKUP, reply, small=(reply,))
        assert plan is rules and tier == "rules", reply


async def test_a_goal_never_replaces_a_requested_change(static: Any) -> None:
    replaced = goal("billing_specialist", "cancel it")
    rules, plan, tier = await plan_for(static, CANCEL, replaced, small=(replaced,))
    assert plan is rules and tier == "rules"


def test_validation_takes_goal_tasks_only_for_roles_with_a_model_tier(static: Any) -> None:
    registry, roles = static
    known = frozenset(registry.skill_ids)
    ok = Plan(tasks=(Task(id="g", role="order_query", goal="find it"),))
    assert validate_plan(ok, roles, known, USER, bulk_args=()) is ok
    rules_role = Plan(tasks=(Task(id="g", role="notifier", goal="find it"),))
    with pytest.raises(PlanRejected, match="takes no goals"):
        validate_plan(rules_role, roles, known, USER, bulk_args=())
    with pytest.raises(ValueError, match="non-empty goal and no skill"):
        Task(id="g", role="order_query", skill="get_user_details_v1", goal="x")
