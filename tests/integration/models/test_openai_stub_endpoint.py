"""The real ChatOpenAI path against a local OpenAI-compatible stub server.

No real model is called: the stub (`tests.openai_stub`) answers POST
/v1/chat/completions on 127.0.0.1 with canned chat completions, per requested
model name.
"""

from __future__ import annotations

import json
import logging
import uuid
from typing import Any

import pytest

from checkpoints.opening import Database
from checkpoints.token_ledger import UsageRow, record_usage
from domains.retail.understanding import understand
from nodes.context import SupportContext
from nodes.domain import load_domain
from nodes.models import ModelTiers
from nodes.models.estimate import estimate_input_tokens
from nodes.models.ladder import intake_messages, model_understanding
from tests.openai_stub import Stub, stub_env

TEXT = "What is going on with the blender in #W1234567?"
# The model's reading adds the item the rules left unread, so it shows when it is used.
VALID = json.dumps(
    {"intents": ["order_status"], "slots": {"order_ids": ["#W1234567"], "item_names": ["blender"]}}
)


def _received(stub: Stub, model: str) -> int:
    return sum(1 for r in stub.requests if r["model"] == model)


async def _ledger(db: Database, thread_id: str) -> list[dict[str, Any]]:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT node, model, input_tokens, output_tokens FROM token_ledger"
            " WHERE thread_id = %s",
            (thread_id,),
        )
        return list(await cur.fetchall())


def _ctx(db: Database, tiers: ModelTiers) -> SupportContext:
    return SupportContext(
        domain=load_domain(), skills=None, registry=None, roles={}, pool=db.pool, models=tiers
    )  # type: ignore[arg-type]


async def test_chat_openai_reaches_the_endpoint_and_usage_is_recorded(
    db: Database, stub: Stub
) -> None:
    stub.answers["stub-small"] = (200, VALID)
    tiers = ModelTiers.from_env(stub_env(stub, small="stub-small"))
    thread = f"t-{uuid.uuid4().hex[:8]}"

    out = await model_understanding(_ctx(db, tiers), {"thread_id": thread}, understand(TEXT))

    assert out.tier == "small" and out.slot("item_names") == ("blender",)
    [request] = stub.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] == "Bearer stub-key"
    assert request["model"] == "stub-small"
    assert [m["role"] for m in request["messages"]] == ["system", "user"]
    assert "#W1234567" in request["messages"][1]["content"]
    assert await _ledger(db, thread) == [
        {"node": "intake", "model": "stub-small", "input_tokens": 42, "output_tokens": 9}
    ]


async def test_http_error_on_large_falls_to_small_without_client_retries(
    db: Database, stub: Stub
) -> None:
    stub.answers["stub-large"] = (500, "")
    stub.answers["stub-small"] = (200, VALID)
    tiers = ModelTiers.from_env(stub_env(stub, small="stub-small", large="stub-large"))
    thread = f"t-{uuid.uuid4().hex[:8]}"

    out = await model_understanding(_ctx(db, tiers), {"thread_id": thread}, understand(TEXT))

    assert out.tier == "small"
    # max_retries=0: the failing tier is asked exactly once; the ladder moves on.
    assert [r["model"] for r in stub.requests] == ["stub-large", "stub-small"]
    # The failed call is in the ledger too: its input estimated, no output.
    assert [r["model"] for r in await _ledger(db, thread)] == ["stub-large", "stub-small"]


async def test_hostile_endpoint_cannot_widen_order_ids(db: Database, stub: Stub) -> None:
    hostile = json.dumps({"intents": ["cancel_order"], "slots": {"order_ids": ["#W0000001"]}})
    stub.answers["stub-small"] = (200, hostile)
    tiers = ModelTiers.from_env(stub_env(stub, small="stub-small"))
    rules = understand(TEXT)

    out = await model_understanding(_ctx(db, tiers), {}, rules)

    assert out == rules and out.slot("order_ids") == ("#W1234567",)


async def test_a_429_with_retry_after_is_retried_once_after_the_asked_wait(
    db: Database, stub: Stub, caplog: pytest.LogCaptureFixture
) -> None:
    stub.queued["stub-small"] = [(429, "", {"Retry-After": "1"})]
    stub.answers["stub-small"] = (200, VALID)
    tiers = ModelTiers.from_env(stub_env(stub, small="stub-small"))

    with caplog.at_level(logging.WARNING, logger="nodes.models.invoke"):
        out = await model_understanding(_ctx(db, tiers), {}, understand(TEXT))

    assert out.tier == "small" and out.slot("item_names") == ("blender",)
    assert _received(stub, "stub-small") == 2
    assert "model call: HTTP 429, retrying in 1.0s" in caplog.text
    assert tiers.breakers.state("small") == "closed"


async def test_a_retry_after_beyond_the_request_deadline_is_not_waited_for(
    db: Database, stub: Stub
) -> None:
    stub.queued["stub-small"] = [(429, "", {"Retry-After": "30"})]
    stub.answers["stub-small"] = (200, VALID)
    env = stub_env(stub, small="stub-small") | {"ROLEGRAPH_REQUEST_TIMEOUT": "5"}
    tiers = ModelTiers.from_env(env)
    rules = understand(TEXT)

    out = await model_understanding(_ctx(db, tiers), {}, rules)

    assert out == rules and _received(stub, "stub-small") == 1


async def test_a_hanging_endpoint_costs_one_timeout_then_the_breaker_skips_it(
    db: Database, stub: Stub
) -> None:
    stub.hanging.add("stub-large")
    env = stub_env(stub, large="stub-large") | {"ROLEGRAPH_MODEL_TIMEOUT": "0.5"}
    tiers = ModelTiers.from_env(env)
    rules = understand(TEXT)

    first = await model_understanding(_ctx(db, tiers), {"thread_id": "t-hang-1"}, rules)
    assert first == rules and _received(stub, "stub-large") == 1
    for n in range(2, 5):
        later = await model_understanding(_ctx(db, tiers), {"thread_id": f"t-hang-{n}"}, rules)
        assert later == rules
    # The breaker is open: later requests never reached the endpoint.
    assert _received(stub, "stub-large") == 1
    assert tiers.breakers.state("large") == "open"


async def test_max_tokens_reaches_the_request_body(db: Database, stub: Stub) -> None:
    stub.answers["stub-small"] = (200, VALID)
    env = stub_env(stub, small="stub-small") | {"ROLEGRAPH_MAX_TOKENS": "200"}
    tiers = ModelTiers.from_env(env)
    out = await model_understanding(_ctx(db, tiers), {}, understand(TEXT))
    assert out.tier == "small"
    [request] = stub.requests
    # Both spellings: OpenAI reads the newer, some local servers only the older.
    assert request["max_completion_tokens"] == 200 and request["max_tokens"] == 200


async def test_max_tokens_in_the_body_is_what_the_request_budget_leaves(
    db: Database, stub: Stub
) -> None:
    stub.answers["stub-small"] = (200, VALID)
    env = stub_env(stub, small="stub-small") | {"ROLEGRAPH_BUDGET_REQUEST": "5000"}
    tiers = ModelTiers.from_env(env)
    rules = understand(TEXT)
    thread = f"t-{uuid.uuid4().hex[:8]}"
    prompt = estimate_input_tokens(intake_messages(tiers.prompts, rules, load_domain()))
    state = {"thread_id": thread, "audit_id": "aud-stub"}
    async with db.pool.connection() as conn:
        spent = UsageRow("planner", "m", 4000, 0, thread, audit_id="aud-stub")
        await record_usage(conn, spent)
    await model_understanding(_ctx(db, tiers), state, rules)
    [request] = stub.requests
    assert request["max_completion_tokens"] == 5000 - 4000 - prompt


async def test_two_tiers_naming_the_same_model_are_asked_once(db: Database, stub: Stub) -> None:
    stub.answers["stub-same"] = (200, "not the JSON intake wants")
    tiers = ModelTiers.from_env(stub_env(stub, small="stub-same", large="stub-same"))
    rules = understand(TEXT)
    thread = f"t-{uuid.uuid4().hex[:8]}"
    out = await model_understanding(_ctx(db, tiers), {"thread_id": thread}, rules)
    assert out == rules
    assert _received(stub, "stub-same") == 1  # the small tier would send the identical request
    assert len(await _ledger(db, thread)) == 1


async def test_a_timed_out_call_is_recorded_with_its_max_tokens(db: Database, stub: Stub) -> None:
    stub.hanging.add("stub-large")
    env = stub_env(stub, large="stub-large") | {
        "ROLEGRAPH_MODEL_TIMEOUT": "0.5",
        "ROLEGRAPH_MAX_TOKENS": "300",
    }
    tiers = ModelTiers.from_env(env)
    thread = f"t-{uuid.uuid4().hex[:8]}"
    out = await model_understanding(_ctx(db, tiers), {"thread_id": thread}, understand(TEXT))
    assert out.tier == "rules"
    [row] = await _ledger(db, thread)
    assert row["model"] == "stub-large" and row["output_tokens"] == 300 and row["input_tokens"] > 0
