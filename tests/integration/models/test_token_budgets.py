"""Token budgets degrade large -> small -> rules -> customer told, enforced from the ledger.

Real PostgreSQL; scripted chat models report fixed token counts, so what the
ledger holds, and so what each budget leaves, is known exactly.
"""

from __future__ import annotations

import dataclasses
import json
import uuid
from typing import Any

from langchain_core.messages import HumanMessage

from checkpoints.opening import Database
from checkpoints.token_ledger import UsageRow, record_usage
from graphs.api import run_request
from nodes.errors import ModelOutputInvalid
from nodes.models import ModelTiers
from nodes.models.accounting import allowance
from nodes.models.budget import MIN_REPLY_TOKENS, Budgets
from nodes.models.budget_notice import budget_spent_text
from nodes.models.call import CallSite, descend_within_budget
from nodes.models.estimate import estimate_input_tokens
from skills.outbox.operator_settings import OperatorNotices
from tests.fakes.chat import ScriptedChatModel, Sleep
from tests.integration.graph.helpers import user_with_orders
from tests.support_fixtures import Support

ASK = [HumanMessage(content="Summarise the order history, please.")]
PROMPT = estimate_input_tokens(ASK)
OUT_OF_SCOPE_TEXT = "Write me a poem about the sea, please."


def fake(name: str, *script: Any, tokens: tuple[int, int] = (100, 20)) -> ScriptedChatModel:
    return ScriptedChatModel(
        script=list(script), model_name=name, input_tokens=tokens[0], output_tokens=tokens[1]
    )


def site(node: str = "planner", role: str | None = None) -> CallSite:
    return CallSite(node, role, thread_id=f"t-{uuid.uuid4().hex[:8]}", audit_id="aud-1")


def reject(reply: str, tier: str) -> str:
    raise ModelOutputInvalid("planner", f"{tier} said {reply!r}")


async def rows(db: Database, thread_id: str) -> list[dict[str, Any]]:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT model, input_tokens, output_tokens, outcome, estimated FROM token_ledger"
            " WHERE thread_id = %s ORDER BY id",
            (thread_id,),
        )
        return list(await cur.fetchall())


async def test_a_request_budget_degrades_large_then_small_then_rules(db: Database) -> None:
    # 120 tokens per call; the budget leaves the small tier less, then too little to reply.
    budget = 120 + 120 + PROMPT + MIN_REPLY_TOKENS - 1
    large, small = fake("big", "no"), fake("tiny", "no")
    tiers = ModelTiers(large=large, small=small, budgets=Budgets(request=budget))
    here = site()
    found = await descend_within_budget(tiers, db.pool, here, "large", ASK, reject)
    assert found.value is None and found.over_budget is None  # both asked, both rejected
    assert large.call_kwargs[0]["max_tokens"] == budget - PROMPT  # all the budget leaves
    assert small.call_kwargs[0]["max_tokens"] == budget - 120 - PROMPT  # what is left then
    again = fake("big-2"), fake("tiny-2")
    tiers = dataclasses.replace(tiers, large=again[0], small=again[1])
    found = await descend_within_budget(tiers, db.pool, here, "large", ASK, reject)
    # Neither tier is asked again: the caller's rules answer.
    assert found.over_budget == "request" and again[0].calls == [] and again[1].calls == []
    assert [r["model"] for r in await rows(db, here.thread_id or "")] == ["big", "tiny"]


async def test_max_tokens_shrinks_to_the_budget_left(db: Database) -> None:
    large = fake("big", "fine")
    tiers = ModelTiers(large=large, budgets=Budgets(request=PROMPT + 50))
    found = await descend_within_budget(tiers, db.pool, site(), "large", ASK, lambda r, t: r)
    assert found.value == "fine"
    assert large.call_kwargs == [{"max_tokens": 50}]


async def test_a_day_spent_by_other_threads_stops_every_tier(db: Database) -> None:
    async with db.pool.connection() as conn:
        await record_usage(conn, UsageRow("intake", "big", 900, 100, thread_id="t-elsewhere"))
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT coalesce(sum(input_tokens + output_tokens), 0) AS n FROM token_ledger"
            " WHERE created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'"
        )
        today = int((await cur.fetchone() or {"n": 0})["n"])
    large, small = fake("big"), fake("tiny")
    tight = Budgets(day=today + PROMPT + MIN_REPLY_TOKENS - 1)
    tiers = ModelTiers(large=large, small=small, budgets=tight)
    found = await descend_within_budget(tiers, db.pool, site(), "large", ASK, reject)
    assert found.over_budget == "day" and large.calls == [] and small.calls == []
    roomy = dataclasses.replace(tiers, budgets=Budgets(day=today + PROMPT + 500))
    large.script.append("fine")
    found = await descend_within_budget(roomy, db.pool, site(), "large", ASK, lambda r, t: r)
    assert found.value == "fine"


async def test_an_agent_budget_stops_one_node_not_the_request(db: Database) -> None:
    here = site("planner")
    async with db.pool.connection() as conn:
        await record_usage(
            conn, UsageRow("planner", "big", 150, 50, here.thread_id, audit_id=here.audit_id)
        )
    tiers = ModelTiers(large=fake("big", "from intake"), budgets=Budgets(agent=200 + PROMPT))
    planner = await descend_within_budget(tiers, db.pool, here, "large", ASK, lambda r, t: r)
    assert planner.over_budget == "agent"
    intake = dataclasses.replace(here, node="intake")
    found = await descend_within_budget(tiers, db.pool, intake, "large", ASK, lambda r, t: r)
    assert found.value == "from intake"  # the same request, another agent: its own budget


async def test_a_role_agent_counts_only_its_own_calls(db: Database) -> None:
    here = site("role", role="order_query")
    async with db.pool.connection() as conn:
        other = dataclasses.replace(here, role="refunds")
        await record_usage(
            conn, UsageRow("role", "big", 500, 0, other.thread_id, "refunds", other.audit_id)
        )
    tiers = ModelTiers(large=fake("big", "ok"), budgets=Budgets(agent=PROMPT + 100))
    found = await descend_within_budget(tiers, db.pool, here, "large", ASK, lambda r, t: r)
    assert found.value == "ok"


async def test_failed_and_timed_out_calls_are_recorded(db: Database) -> None:
    large = fake("big", RuntimeError("endpoint down"))
    small = fake("tiny", Sleep())
    tiers = ModelTiers(large=large, small=small, timeout_s=0.05, budgets=Budgets(request=10**6))
    here = site()
    found = await descend_within_budget(tiers, db.pool, here, "large", ASK, lambda r, t: r)
    assert found.value is None
    assert await rows(db, here.thread_id or "") == [
        {"model": "big", "input_tokens": PROMPT, "output_tokens": 0,
         "outcome": "failed", "estimated": True},
        {"model": "tiny", "input_tokens": PROMPT, "output_tokens": 1024,
         "outcome": "timed_out", "estimated": True},
    ]  # fmt: skip


async def test_spent_budget_tells_the_customer_and_notifies_operators(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "delivered", skip=41)
    rules_only = await run_request(support.graph, support.ctx, text=OUT_OF_SCOPE_TEXT, user_id=user)
    # Without a model the rules answer "out of scope"; no budget stopped anything.
    assert rules_only.intents == ["out_of_scope"]
    assert budget_spent_text("en") not in rules_only.answer
    # Intake's large tier is asked and rejected; what it spent leaves the small tier nothing.
    large = fake("big", "not json", tokens=(6000, 20))
    small = fake("tiny")
    ops = OperatorNotices(recipients=("ops@example.com",), webhook_url="https://hooks.example/x")
    tiers = ModelTiers(large=large, small=small, budgets=Budgets(request=6000))
    ctx = dataclasses.replace(support.ctx, models=tiers, operator_notices=ops)
    done = await run_request(support.graph, ctx, text=OUT_OF_SCOPE_TEXT, user_id=user)
    assert len(large.calls) == 1 and small.calls == []
    assert budget_spent_text("en") in done.answer and "outside what I can do" not in done.answer
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT channel, recipient, subject, body FROM notifications"
            " WHERE idempotency_key LIKE %s ORDER BY id",
            (f"budget:{done.thread_id}:{done.audit_id}:intake:%",),
        )
        notices = await cur.fetchall()
    assert [(n["channel"], n["recipient"]) for n in notices] == [
        ("email", "ops@example.com"),
        ("webhook", "https://hooks.example/x"),
    ]
    hook = json.loads(notices[1]["body"])
    assert hook["event"] == "rolegraph.budget.spent" and hook["budget"] == "request"
    assert "request token budget spent" in notices[0]["subject"]
    assert "ROLEGRAPH_BUDGET_REQUEST" in notices[0]["body"] and user in notices[0]["body"]


async def test_bound_tool_schemas_count_against_the_budget(db: Database) -> None:
    tools = [
        {"type": "function", "function": {"name": f"lookup_{n}_v1", "parameters": {
            "type": "object", "properties": {"order_id": {"type": "string"}}}}}
        for n in range(20)
    ]  # fmt: skip
    schemas = estimate_input_tokens(ASK, tools) - PROMPT
    assert schemas > 100
    budgets = Budgets(request=PROMPT + schemas + 100)
    bare = await allowance(budgets, db.pool, site(), ASK)
    bound = await allowance(budgets, db.pool, site(), ASK, tools)
    assert bare.max_tokens == min(schemas + 100, 1024) and bound.max_tokens == 100
