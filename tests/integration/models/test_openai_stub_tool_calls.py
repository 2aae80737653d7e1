"""A role agent on the real `ChatOpenAI` path: the local stub answers with OpenAI
`tool_calls`, then a final answer, and every call runs through the skill runtime.

The tiers are built by `ModelTiers.from_env` from the model settings, as a
deployment builds them: the large tier (intake, planner) and the small tier
(the `order_query` role agent) are two model names on the one stub.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from graphs.api import RunReport
from nodes.models import ModelTiers
from tests.integration.agent.helpers import ask, audit_of, goal, intake
from tests.integration.graph.helpers import order_status, user_with_orders
from tests.openai_stub import Stub, stub_env, tool_calls
from tests.support_fixtures import Support

PLANNER, AGENT = "stub-large", "stub-agent"
TEXT = "what is going on with my orders?"
ROLE = "order_query"


async def _run(support: Support, stub: Stub, user: str, *steps: Any) -> RunReport:
    """The request planned as a goal for `ROLE`, whose agent the stub plays with `steps`."""
    plans = [intake("order_status"), goal(ROLE, "tell the customer about their orders")]
    stub.queued[PLANNER] = [(200, text, {}) for text in plans]
    stub.queued[AGENT] = [(200, step, {}) for step in steps]
    # Compose on the rules tier: the agent's model is asked for the loop's steps only.
    env = stub_env(stub, large=PLANNER, small=AGENT) | {"ROLEGRAPH_TIER_COMPOSE": "rules"}
    ctx = dataclasses.replace(support.ctx, models=ModelTiers.from_env(env))
    return await ask(support, ctx, TEXT, user)


def _tool_names(request: dict[str, Any]) -> set[str]:
    return {t["function"]["name"] for t in request.get("tools", [])}


def _tool_messages(request: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in request["messages"] if m["role"] == "tool"]


async def test_the_agent_calls_whitelisted_skills_through_chat_openai(
    support: Support, stub: Stub
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=41)
    done = await _run(
        support,
        stub,
        user,
        tool_calls(("get_user_details_v1", {})),
        tool_calls(("load_skill", {"name": "get_order_details_v1"}), first=2),
        tool_calls(("get_order_details_v1", {"order_id": order}), first=3),
        f"Your order {order} is pending.",
    )
    assert done.status == "completed", done.trace
    assert [r["model"] for r in stub.requests] == [PLANNER, PLANNER, *[AGENT] * 4]
    asked = stub.received(AGENT)
    # Exactly the role's whitelist (less the identity lookups kept from models) + load_skill.
    spec, kept = support.ctx.roles[ROLE], support.ctx.domain.planning.unplannable
    for request in asked:
        assert _tool_names(request) == {*(spec.execute - kept), "load_skill"}
        assert not _tool_names(request) & spec.deny
        assert request["max_tokens"] > 0 and request["max_completion_tokens"] > 0
        # Sent as bound: each skill a name over an open object (its signature is in the
        # prompt's tool list), load_skill with its one typed argument.
        schemas = {t["function"]["name"]: t["function"]["parameters"] for t in request["tools"]}
        assert schemas["get_order_details_v1"] == {"type": "object"}
        assert schemas["load_skill"]["required"] == ["name"]
    # Each result came back as a `tool` message answering its call.
    assert _tool_messages(asked[0]) == []
    [first] = _tool_messages(asked[1])
    assert first["tool_call_id"] == "call_1"
    # The customer's profile, less their id: the session's, never the model's to pass.
    assert first["content"].startswith("<tool_result>\n") and order in first["content"]
    assert user not in first["content"]
    # The loaded instructions are the load's result, in every later request.
    assert not [m for m in asked[1]["messages"] if "<skill_doc" in str(m["content"])]
    for later in asked[2:]:
        docs = [m for m in later["messages"] if "<skill_doc" in str(m["content"])]
        assert [m["role"] for m in docs] == ["tool"]
        assert docs[0] == _tool_messages(later)[1]
        assert '<skill_doc name="get_order_details_v1">' in docs[0]["content"]
    result = _tool_messages(asked[3])[2]
    # The order asked for, less its id: the call right before it names it.
    assert result["tool_call_id"] == "call_3" and '"status":"pending"' in result["content"]
    calls = await audit_of(support.db.pool, done.audit_id or "")
    assert [(r["skill"], r["role"], r["status"]) for r in calls] == [
        ("get_user_details_v1", ROLE, "success"),
        ("get_order_details_v1", ROLE, "success"),
    ]
    assert order in done.answer


async def test_a_tool_the_role_does_not_hold_is_refused_audited_and_told(
    support: Support, stub: Stub
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=42)
    cancel = {"order_id": order, "reason": "no longer needed"}
    done = await _run(
        support,
        stub,
        user,
        tool_calls(("cancel_pending_order_v1", cancel)),
        "I could not do that.",
    )
    first, second = stub.received(AGENT)
    assert "cancel_pending_order_v1" not in _tool_names(first)
    assert await order_status(support.db.pool, order) == "pending"
    calls = await audit_of(support.db.pool, done.audit_id or "")
    assert [(r["skill"], r["status"], r["error_code"]) for r in calls] == [
        ("cancel_pending_order_v1", "denied", "permission_denied")
    ]
    [told] = _tool_messages(second)
    assert told["tool_call_id"] == "call_1"
    assert json.loads(told["content"].splitlines()[1]) == {"error": "permission_denied"}
    assert done.status == "completed" and "cancelled" not in done.answer
