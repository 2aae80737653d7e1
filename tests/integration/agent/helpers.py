"""Scripted role agents on the support graph over the reference data."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from graphs.api import RunReport, compile_support, run_request
from nodes.agent.bounds import AgentBounds
from nodes.context import SupportContext
from nodes.models import ModelTiers
from nodes.models.node_tiers import NodeTiers
from tests.fakes.chat import ScriptedChatModel
from tests.support_fixtures import Support


def fake(*script: Any, name: str = "scripted-model") -> ScriptedChatModel:
    return ScriptedChatModel(script=list(script), model_name=name)


def intake(intent: str, **slots: list[str]) -> str:
    return json.dumps({"intents": [intent], "slots": slots})


def goal(role: str, text: str) -> str:
    return json.dumps({"tasks": [{"id": "g1", "role": role, "goal": text}]})


def with_models(
    support: Support, large: Any, small: Any, bounds: AgentBounds | None = None
) -> SupportContext:
    ctx = dataclasses.replace(support.ctx, models=agent_tiers(large=large, small=small))
    return dataclasses.replace(ctx, agent_bounds=bounds) if bounds else ctx


def agent_tiers(**models: Any) -> ModelTiers:
    """Model tiers for the agents only: the answer stays the template (compose's model
    tier has its own tests), so a script holds exactly the agent's calls."""
    return ModelTiers(**models, nodes=NodeTiers.from_env({"ROLEGRAPH_TIER_COMPOSE": "rules"}))


async def ask(support: Support, ctx: SupportContext, text: str, user: str) -> RunReport:
    graph = compile_support(ctx, support.db.checkpointer)
    return await run_request(graph, ctx, text=text, user_id=user)


async def user_with_item(pool: Any, word: str, skip: int = 0) -> tuple[str, list[str], list[str]]:
    """A user with orders of which some hold an item named like `word`: (user, all, with it)."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT o.user_id, array_agg(DISTINCT o.order_id) AS ids,"
            " array_agg(DISTINCT o.order_id) FILTER (WHERE i.name ILIKE %s) AS hits"
            " FROM orders o JOIN order_items i USING (order_id) GROUP BY o.user_id"
            " HAVING count(DISTINCT o.order_id) BETWEEN 2 AND 4"
            " AND count(DISTINCT o.order_id) FILTER (WHERE i.name ILIKE %s)"
            " BETWEEN 1 AND count(DISTINCT o.order_id) - 1"
            " ORDER BY o.user_id OFFSET %s LIMIT 1",
            (f"%{word}%", f"%{word}%", skip),
        )
        row = await cur.fetchone()
    assert row is not None, f"no user with some orders holding a {word}"
    return row["user_id"], sorted(row["ids"]), sorted(row["hits"])


async def audit_of(pool: Any, audit_id: str, task: str | None = "g1") -> list[dict[str, Any]]:
    """The skill events of one task of the request: by default the goal's (the rules'
    planned steps run beside it, `nodes.planner.goals`); every task's with None (the
    operator's decisions name no task)."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT skill, role, status, error_code, node FROM audit_events"
            " WHERE audit_id = %s AND skill IS NOT NULL"
            " AND (%s::text IS NULL OR detail->>'task_id' = %s) ORDER BY id",
            (audit_id, task, task),
        )
        return list(await cur.fetchall())
