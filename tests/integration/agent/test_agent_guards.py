"""What a scripted role agent may try, and what the runtime and the loop's bounds let through."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import ToolMessage

from graphs.api import RunReport
from nodes.agent.bounds import AgentBounds
from nodes.agent.fence import MAX_TOOL_CHARS
from nodes.models import ModelTiers
from tests.fakes.chat import ScriptedChatModel, ToolCalls
from tests.integration.agent.helpers import ask, audit_of, fake, goal, intake, with_models
from tests.integration.graph.helpers import order_status, user_with_orders
from tests.support_fixtures import Support

GOAL = "tell the customer about their orders"
TEXT = "what is going on with my orders?"


async def run_agent(
    support: Support, user: str, *steps: Any, bounds: AgentBounds | None = None
) -> tuple[RunReport, ScriptedChatModel]:
    """A request planned as a goal for order_query, whose agent plays `steps`."""
    large = fake(intake("order_status"), goal("order_query", GOAL))
    small = fake(*steps, name="agent-model")
    done = await ask(support, with_models(support, large, small, bounds), TEXT, user)
    return done, small


def told(model: ScriptedChatModel, call: int) -> list[str]:
    """The tool results the model was shown in its `call`-th call."""
    return [str(m.content) for m in model.calls[call] if isinstance(m, ToolMessage)]


async def rows(support: Support, done: RunReport) -> list[tuple[str, str, str | None]]:
    found = await audit_of(support.db.pool, done.audit_id or "")
    return [(r["skill"], r["status"], r["error_code"]) for r in found]


async def test_a_skill_outside_the_whitelist_is_refused_audited_and_never_run(
    support: Support,
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=30)
    cancel = ("cancel_pending_order_v1", {"order_id": order, "reason": "no longer needed"})
    done, model = await run_agent(support, user, ToolCalls.of(cancel), "I could not do that.")
    assert "cancel_pending_order_v1" not in model.bound[0]
    assert await order_status(support.db.pool, order) == "pending"
    assert await rows(support, done) == [("cancel_pending_order_v1", "denied", "permission_denied")]
    assert "permission_denied" in told(model, 1)[0]


async def test_another_customers_order_and_an_invented_id_are_refused(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "pending", skip=31)
    other, (theirs,) = await user_with_orders(support.db.pool, "delivered", skip=32)
    assert other != user
    done, model = await run_agent(
        support,
        user,
        ToolCalls.of(
            ("get_order_details_v1", {"order_id": theirs}),
            ("get_order_details_v1", {"order_id": "#W0000001"}),
        ),
        f"Order {theirs} was delivered.",
    )
    codes = [code for _, _, code in await rows(support, done)]
    assert codes == ["not_owner", "not_found"]
    assert ["not_owner" in t for t in told(model, 1)] == [True, False]
    # The model's claim about the other customer's order is not stated.
    assert theirs not in done.answer
    # The agent's unchecked sentence is dropped; the rules' own reads answer.
    assert "was delivered" not in done.answer and "Your orders" in done.answer


async def test_hostile_arguments_never_name_another_customer(support: Support) -> None:
    user, (mine,) = await user_with_orders(support.db.pool, "pending", skip=33)
    other, (theirs,) = await user_with_orders(support.db.pool, "delivered", skip=34)
    hostile = {"user_id": other, "sql": "DROP TABLE users", "order_id": "' OR 1=1 --"}
    done, model = await run_agent(
        support,
        user,
        ToolCalls.of(
            ("get_user_details_v1", {"user_id": other}), ("get_order_details_v1", hostile)
        ),
        "Done.",
    )
    found = await audit_of(support.db.pool, done.audit_id or "")
    assert (found[0]["skill"], found[0]["status"]) == ("get_user_details_v1", "success")
    shown = told(model, 1)
    # The session's customer was looked up, not the one the model named (their own id
    # is the session's, so the profile shown leaves it out; their orders say whose it is).
    assert mine in shown[0] and theirs not in shown[0] and other not in shown[0]
    assert (found[1]["skill"], found[1]["error_code"]) == (
        "get_order_details_v1",
        "validation_error",
    )


async def test_three_identical_calls_stop_the_loop_partial(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "pending", skip=35)
    same = ToolCalls.of(("get_user_details_v1", {}))
    done, model = await run_agent(support, user, same, same, same)
    assert len(model.calls) == 3
    assert [s for s, _, _ in await rows(support, done)] == ["get_user_details_v1"] * 2
    assert any("g1 goal -> succeeded partial (repeated" in line for line in done.trace)
    assert done.status == "completed"


async def test_max_steps_and_token_budget_bound_the_loop(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=36)
    look = ToolCalls.of(("get_order_details_v1", {"order_id": order}))
    who = ToolCalls.of(("get_user_details_v1", {}))
    done, model = await run_agent(support, user, who, look, bounds=AgentBounds(max_steps=2))
    assert len(model.calls) == 2
    assert any("partial (max_steps" in line for line in done.trace)
    # 18 tokens a call (the fake's usage): the second call spends the budget of 30.
    done, model = await run_agent(support, user, who, look, bounds=AgentBounds(tokens=30))
    assert len(model.calls) == 2
    assert any("partial (tokens" in line for line in done.trace)


async def test_tool_output_reaches_the_model_fenced_and_cut(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "pending", skip=37)
    _, model = await run_agent(
        support, user, ToolCalls.of(("list_all_product_types_v1", {})), "Here they are."
    )
    (result,) = told(model, 1)
    assert result.startswith("<tool_result>\n")
    assert result.endswith("</tool_result>")
    assert len(result) < MAX_TOOL_CHARS + 200


async def test_an_order_is_shown_less_what_the_call_and_session_say(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=46)
    closing = f"Order {order} is pending."
    look = ToolCalls.of(("get_order_details_v1", {"order_id": order}))
    done, model = await run_agent(support, user, look, closing)
    (result,) = told(model, 1)
    seen = json.loads(result.removeprefix("<tool_result>\n").removesuffix("\n</tool_result>"))
    # The order's own facts, as the skill returned them ...
    assert seen["status"] == "pending" and seen["items"] and seen["payment_history"]
    assert {"address1", "city", "zip"} <= set(seen["address"])
    # ... less the order id the call asked for, the customer's id and the empty fields.
    assert "order_id" not in seen and "user_id" not in seen and user not in result
    assert "cancel_reason" not in seen and None not in seen.values()
    # The findings keep the whole document: the closing text's order id is checked
    # against it, so the sentence is stated.
    assert closing in done.answer, done.trace


async def test_invented_facts_in_the_closing_text_are_not_stated(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=38)
    done, _ = await run_agent(
        support,
        user,
        ToolCalls.of(("get_order_details_v1", {"order_id": order})),
        f"Order {order} was refunded $999.99 yesterday.",
    )
    assert "999.99" not in done.answer
    assert order in done.answer  # told from the result, in the domain's own sentence


async def test_without_a_model_the_rules_tier_answers(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "pending", skip=39)
    done = await ask(support, with_models(support, None, None), TEXT, user)
    assert any(line.startswith("planner[rules]") for line in done.trace)
    assert not any("goal" in line for line in done.trace)
    assert done.status == "completed"


async def test_when_every_tier_fails_the_goal_fails_and_is_told(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "pending", skip=40)
    done, model = await run_agent(support, user, RuntimeError("endpoint down"))
    assert any("g1 goal -> failed (no_model; no calls)" in line for line in done.trace)
    assert len(model.calls) == 1


def test_models_none_is_rules_only() -> None:
    assert not ModelTiers().available
