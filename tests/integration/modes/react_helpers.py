"""What the react-mode tests share: a context whose only model is the front role's agent."""

from __future__ import annotations

import dataclasses
from typing import Any

from graphs.api import RunReport, compile_support, run_request
from nodes.context import SupportContext
from nodes.models import ModelTiers
from nodes.models.node_tiers import NodeTiers
from tests.fakes.chat import ScriptedChatModel
from tests.support_fixtures import Support

RULES_NODES = {
    f"ROLEGRAPH_TIER_{node}": "rules" for node in ("INTAKE", "PLANNER", "COMPOSE", "SUMMARY")
}
"""Every harness node on the rules tier: a script holds exactly the agent's calls."""


def agent_model(*script: Any, name: str = "front-agent") -> ScriptedChatModel:
    return ScriptedChatModel(script=list(script), model_name=name)


def react_ctx(ctx: SupportContext, model: ScriptedChatModel | None) -> SupportContext:
    """`ctx` whose large tier (the front role's) plays `model`; every other node is rules."""
    if model is None:
        return dataclasses.replace(ctx, models=None)
    tiers = ModelTiers(large=model, small=None, nodes=NodeTiers.from_env(RULES_NODES))
    return dataclasses.replace(ctx, models=tiers)


def react_graph(support: Support, ctx: SupportContext) -> Any:
    return compile_support(ctx, support.db.checkpointer, support.db.store, mode="react")


async def ask(support: Support, ctx: SupportContext, text: str, user: str, mode: str) -> RunReport:
    graph = compile_support(ctx, support.db.checkpointer, support.db.store, mode=mode)
    return await run_request(graph, ctx, text=text, user_id=user)


async def audit_of(pool: Any, audit_id: str) -> list[tuple[str, str, str]]:
    """(skill, role, status) of every skill row of one turn, in order."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT skill, role, status FROM audit_events"
            " WHERE audit_id = %s AND skill IS NOT NULL ORDER BY id",
            (audit_id,),
        )
        return [(r["skill"], r["role"], r["status"]) for r in await cur.fetchall()]
