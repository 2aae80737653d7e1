"""Token usage of every model call lands in token_ledger (real PostgreSQL)."""

from __future__ import annotations

import json
import uuid
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from checkpoints.opening import Database
from domains.retail.understanding import understand
from nodes.context import SupportContext
from nodes.domain import load_domain
from nodes.models import ModelTiers
from nodes.models.budget import DEFAULT_MAX_TOKENS
from nodes.models.estimate import estimate_input_tokens
from nodes.models.ladder import intake_messages, model_understanding
from nodes.models.usage import record_usage
from tests.fakes.chat import ScriptedChatModel, Sleep

TEXT = "What is going on with the blender in #W1234567?"
VALID = json.dumps({"intents": ["refund_status"], "slots": {"order_ids": ["#W1234567"]}})


def ctx(db: Database, tiers: ModelTiers) -> SupportContext:
    return SupportContext(
        domain=load_domain(), skills=None, registry=None, roles={}, pool=db.pool, models=tiers
    )  # type: ignore[arg-type]


async def ledger(db: Database, thread_id: str) -> list[dict[str, Any]]:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT node, role, model, input_tokens, output_tokens FROM token_ledger"
            " WHERE thread_id = %s ORDER BY id",
            (thread_id,),
        )
        return list(await cur.fetchall())


def fake(name: str, *script: Any, tokens: tuple[int, int] = (11, 7)) -> ScriptedChatModel:
    return ScriptedChatModel(
        script=list(script), model_name=name, input_tokens=tokens[0], output_tokens=tokens[1]
    )


async def test_record_usage_writes_one_row(db: Database) -> None:
    thread = f"t-{uuid.uuid4().hex[:8]}"
    await record_usage(
        db.pool, thread_id=thread, node="planner", role="order_query", model="m",
        input_tokens=5, output_tokens=3,
    )  # fmt: skip
    assert await ledger(db, thread) == [
        {
            "node": "planner",
            "role": "order_query",
            "model": "m",
            "input_tokens": 5,
            "output_tokens": 3,
        }
    ]


async def test_every_answered_call_is_recorded_even_when_rejected(db: Database) -> None:
    thread = f"t-{uuid.uuid4().hex[:8]}"
    tiers = ModelTiers(
        large=fake("big", "not json at all", tokens=(100, 20)),
        small=fake("tiny", VALID, tokens=(40, 8)),
    )
    out = await model_understanding(ctx(db, tiers), {"thread_id": thread}, understand(TEXT))
    assert out.tier == "small"
    assert await ledger(db, thread) == [
        {"node": "intake", "role": None, "model": "big", "input_tokens": 100, "output_tokens": 20},
        {"node": "intake", "role": None, "model": "tiny", "input_tokens": 40, "output_tokens": 8},
    ]


async def test_a_timed_out_call_is_recorded_as_an_estimate(db: Database) -> None:
    thread = f"t-{uuid.uuid4().hex[:8]}"
    tiers = ModelTiers(large=fake("big", Sleep()), small=fake("tiny", VALID), timeout_s=0.05)
    rules = understand(TEXT)
    out = await model_understanding(ctx(db, tiers), {"thread_id": thread}, rules)
    assert out.tier == "small"
    prompt = estimate_input_tokens(intake_messages(tiers.prompts, rules, load_domain()))
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT model, input_tokens, output_tokens, outcome, estimated FROM token_ledger"
            " WHERE thread_id = %s ORDER BY id",
            (thread,),
        )
        rows = await cur.fetchall()
    # The hung call may have generated everything it was allowed: counted as such.
    assert rows == [
        {"model": "big", "input_tokens": prompt, "output_tokens": DEFAULT_MAX_TOKENS,
         "outcome": "timed_out", "estimated": True},
        {"model": "tiny", "input_tokens": 11, "output_tokens": 7,
         "outcome": "replied", "estimated": False},
    ]  # fmt: skip


class _State(TypedDict, total=False):
    text: str
    tier: str


async def _intake_like(state: _State, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    out = await model_understanding(runtime.context, dict(state), understand(state["text"]))
    return {"tier": out.tier}


async def test_thread_id_comes_from_the_running_graph(db: Database) -> None:
    thread = f"t-{uuid.uuid4().hex[:8]}"
    g: StateGraph[Any, Any, Any, Any] = StateGraph(_State, context_schema=SupportContext)
    g.add_node("intake", _intake_like)
    g.add_edge(START, "intake")
    g.add_edge("intake", END)
    graph = g.compile()
    result = await graph.ainvoke(
        {"text": TEXT},
        config={"configurable": {"thread_id": thread}},
        context=ctx(db, ModelTiers(large=fake("big", VALID))),
    )
    assert result["tier"] == "large"
    assert [r["model"] for r in await ledger(db, thread)] == ["big"]
