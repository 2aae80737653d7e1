"""The react mode on the second domain: the library's front role (the circulation desk)
pursues the request; a weak model leaves the answer the rules tier gives."""

from __future__ import annotations

import dataclasses
from typing import Any

from checkpoints.opening import Database
from domains.library.pack import DOMAIN as LIBRARY
from graphs.api import RunReport, compile_support, run_request
from nodes.bootstrap import build_support_context
from nodes.models import ModelTiers
from nodes.models.node_tiers import NodeTiers
from tests.fakes.chat import ScriptedChatModel, ToolCalls

RULES_NODES = {
    f"ROLEGRAPH_TIER_{node}": "rules" for node in ("INTAKE", "PLANNER", "COMPOSE", "SUMMARY")
}
QUESTION = "Which of my loans is due first?"


async def _run(db: Database, mode: str, model: ScriptedChatModel | None) -> RunReport:
    ctx = await build_support_context(db.pool, env={}, domain=LIBRARY)
    tiers: Any = None
    if model is not None:
        tiers = ModelTiers(large=None, small=model, nodes=NodeTiers.from_env(RULES_NODES))
    ctx = dataclasses.replace(ctx, models=tiers)
    graph = compile_support(ctx, db.checkpointer, mode=mode)
    return await run_request(graph, ctx, text=QUESTION, user_id="M-1001")


async def test_the_circulation_desk_answers_in_the_react_mode(library_db: Database) -> None:
    model = ScriptedChatModel(
        script=[ToolCalls.of(("get_member_loans_v1", {})), "LN-20001 is due first."]
    )
    done = await _run(library_db, "react", model)
    assert done.status == "completed", done.trace
    assert [(t["role"], t["skill"]) for t in done.plan] == [("circulation_desk", "")]
    assert "waive_fine_v1" not in model.bound[0] and "get_member_loans_v1" in model.bound[0]
    assert "LN-20001 is due first." in done.answer


async def test_a_weak_model_leaves_the_rules_answer(library_db: Database) -> None:
    weak = ScriptedChatModel(script=["no idea, sorry!!"])
    react = await _run(library_db, "react", weak)
    rules = await _run(library_db, "support", None)
    assert react.status == rules.status == "completed"
    assert react.answer == rules.answer
    assert any(line.startswith("fallback:") for line in react.trace), react.trace
