"""A role agent on the second domain: the harness's loop knows no retail name."""

from __future__ import annotations

import dataclasses
import json

from checkpoints.opening import Database
from domains.library.pack import DOMAIN as LIBRARY
from graphs.api import compile_support, run_request
from nodes.bootstrap import build_support_context
from nodes.models import ModelTiers
from nodes.models.node_tiers import NodeTiers
from tests.fakes.chat import ScriptedChatModel, ToolCalls


async def test_a_goal_is_pursued_with_the_circulation_desks_skills(library_db: Database) -> None:
    ctx = await build_support_context(library_db.pool, env={}, domain=LIBRARY)
    large = ScriptedChatModel(
        script=[
            json.dumps({"intents": ["loan_status"], "slots": {}}),
            json.dumps(
                {
                    "tasks": [
                        {"id": "g1", "role": "circulation_desk", "goal": "which loan is due first"}
                    ]
                }
            ),
        ]
    )
    # The model names another member: the session's member is looked up instead.
    small = ScriptedChatModel(
        script=[
            ToolCalls.of(("get_member_loans_v1", {"member_id": "M-1002"})),
            "LN-20001 is due first.",
        ]
    )
    # Compose on the rules tier: the answer is the template's, worded by no model.
    rules_compose = NodeTiers.from_env({"ROLEGRAPH_TIER_COMPOSE": "rules"})
    ctx = dataclasses.replace(ctx, models=ModelTiers(large=large, small=small, nodes=rules_compose))
    graph = compile_support(ctx, library_db.checkpointer)
    done = await run_request(graph, ctx, text="Which of my loans is due first?", user_id="M-1001")
    assert done.status == "completed", done.trace
    assert "waive_fine_v1" not in small.bound[0]
    assert "get_member_loans_v1" in small.bound[0]
    tool = json.dumps(small.calls[1][-1].content)
    # M-1001's loans (their id is the session's, so the result shown leaves it out).
    assert "Ada Byrne" in tool and "Liang Wei" not in tool and "M-100" not in tool
    assert "LN-20001" in done.answer
