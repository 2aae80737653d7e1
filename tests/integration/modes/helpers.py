"""What the mode tests share: graphs of a mode over the module's database, role-step traces."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from graphs.api import compile_support
from nodes.context import SupportContext
from nodes.models import ModelTiers
from tests.fakes.chat import ScriptedChatModel
from tests.support_fixtures import Support


def graph_of(support: Support, mode: str, ctx: SupportContext | None = None) -> Any:
    """`mode`'s graph over the module's checkpointer and store."""
    return compile_support(ctx or support.ctx, support.db.checkpointer, support.db.store, mode=mode)


def with_model(ctx: SupportContext, *script: Any) -> tuple[SupportContext, ScriptedChatModel]:
    """`ctx` whose large tier plays `script` (no small tier)."""
    large = ScriptedChatModel(script=list(script))
    return dataclasses.replace(ctx, models=ModelTiers(large=large, small=None)), large


def intake(intent: str, order: str) -> str:
    return json.dumps({"intents": [intent], "slots": {"order_ids": [order]}})


def plan(*tasks: tuple[str, str, str, dict[str, Any], list[str]]) -> str:
    keys = ("id", "role", "skill", "args", "depends_on")
    return json.dumps({"tasks": [dict(zip(keys, t, strict=True)) for t in tasks]})


async def role_steps(graph: Any, thread_id: str) -> list[list[str]]:
    """The role nodes each superstep of the thread ran, oldest first (steps without any
    left out)."""
    config = {"configurable": {"thread_id": thread_id}}
    steps = []
    async for snapshot in graph.aget_state_history(config):
        names = [t.name for t in snapshot.tasks if t.name.startswith("role_")]
        if names:
            steps.append(sorted(names))
    return steps[::-1]
