"""Studio's chat view, through the real `langgraph dev` server and the LangGraph SDK.

Studio offers its chat view for a graph whose input and output carry a
`messages` list of chat messages, sends each customer line as
`{"messages": [{"role": "human", ...}]}` and streams the run with
`stream_mode="messages"`: the answer must arrive as an AI message in that
stream, each new line is a new turn on the same thread, a confirmation
question is a message too, and a write that needs an operator still stops
with its pending request on show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from langgraph_sdk.client import LangGraphClient
from langgraph_sdk.schema import StreamMode

from checkpoints.opening import Database
from tests.integration.graph.helpers import order_status, user_with_orders
from tests.integration.server.dev_server import DevServer
from tests.integration.server.served import client_for, token_for

CHAT_MESSAGE_TYPES = {"HumanMessage", "AIMessage"}
"""Message schemas a chat client needs in the graph's `messages` list."""


def _says(text: str) -> dict[str, Any]:
    """A customer line as Studio's chat view sends it."""
    return {"messages": [{"role": "human", "content": text}]}


async def _stream(
    client: LangGraphClient, tid: str, text: str, modes: StreamMode | Sequence[StreamMode]
) -> list[tuple[str, Any]]:
    """Every (event, data) of one streamed turn."""
    stream = client.runs.stream(tid, "support", input=_says(text), stream_mode=modes)
    return [(part.event, part.data) async for part in stream]


def _streamed_messages(events: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    """The whole messages a `messages` stream delivered (complete, or the
    last partial of each id), in the order they arrived."""
    by_id: dict[str, dict[str, Any]] = {}
    for event, data in events:
        if event in ("messages/complete", "messages/partial"):
            for message in data:
                by_id[message["id"]] = message
        elif event == "messages":  # the tuple form: [message, metadata]
            by_id[data[0]["id"]] = data[0]
    return list(by_id.values())


def _answers(events: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in _streamed_messages(events) if m["type"] in ("ai", "AIMessageChunk")]


def _message_refs(schema: dict[str, Any]) -> set[str]:
    items = schema["properties"]["messages"]["items"]
    alternatives = items.get("oneOf") or items.get("anyOf") or [items]
    return {alt["$ref"].rsplit("/", 1)[-1] for alt in alternatives if "$ref" in alt}


async def _customer(db: Database, skip: int) -> tuple[str, str, str]:
    user, (order,) = await user_with_orders(db.pool, "pending", skip=skip)
    return user, order, await token_for(db, "customer", user)


async def test_the_graph_offers_studio_a_chat(served: DevServer, retail_db: Database) -> None:
    async with client_for(served, await token_for(retail_db, "operator", "studio")) as client:
        (assistant,) = await client.assistants.search(graph_id="support")
        schemas = await client.assistants.get_schemas(assistant["assistant_id"])
    for name in ("input_schema", "output_schema", "state_schema"):
        schema = schemas[name]
        assert schema["properties"]["messages"]["type"] == "array", name
        assert _message_refs(schema) >= CHAT_MESSAGE_TYPES, (name, _message_refs(schema))


@pytest.mark.parametrize("modes", ["messages", ["messages", "updates"]])
async def test_answers_stream_as_ai_messages_turn_after_turn(
    served: DevServer, retail_db: Database, modes: StreamMode | list[StreamMode]
) -> None:
    user, order, token = await _customer(retail_db, skip=50 if modes == "messages" else 51)
    async with client_for(served, token) as client:
        tid = (await client.threads.create())["thread_id"]
        first = await _stream(client, tid, f"what's the status of order {order}?", modes)
        second = await _stream(client, tid, "and what is in that order?", modes)
        values = (await client.threads.get_state(tid))["values"]

    (answer,) = _answers(first)
    assert f"{order} is pending" in answer["content"], (first, served.log())
    assert answer["id"].startswith("ans-")
    (again,) = _answers(second)
    assert again["id"] != answer["id"] and again["content"] == values["answer"]
    assert [m["type"] for m in values["messages"]] == ["human", "ai", "human", "ai"]
    assert values["messages"][1]["content"] == answer["content"]
    assert values["turn"] == 2 and values["customer"] == user


async def test_a_risky_write_still_interrupts_with_its_pending_request(
    served: DevServer, retail_db: Database
) -> None:
    _, order, token = await _customer(retail_db, skip=52)
    modes: list[StreamMode] = ["messages", "updates"]
    async with client_for(served, token) as client:
        tid = (await client.threads.create())["thread_id"]
        asked = await _stream(
            client, tid, f"please cancel order {order}, ordered by mistake", modes
        )
        asking = (await client.threads.get_state(tid))["values"]
        # The customer confirms first (issue 9 §3); the operator's approval follows.
        events = await _stream(client, tid, "yes", modes)
        state = await client.threads.get_state(tid)
        thread = await client.threads.get(tid)

    streamed = [
        request
        for event, data in events
        if event == "updates" and "__interrupt__" in data
        for interrupt in data["__interrupt__"]
        for request in interrupt["value"]["requests"]
    ]
    pending = [
        request
        for task in state["tasks"]
        for interrupt in task.get("interrupts") or []
        for request in interrupt["value"]["requests"]
    ]
    # The confirmation question is a chat message like any answer.
    assert asking["status"] == "needs_input" and asking["question"]["kind"] == "confirm"
    (question,) = _answers(asked)
    assert order in question["content"] and question["content"] == asking["answer"]
    assert thread["status"] == "interrupted", served.log()
    (request,) = pending
    assert request["kind"] == "approval" and request["args"]["order_id"] == order
    assert request["skill"].startswith("cancel_pending_order")
    assert [r["id"] for r in streamed] == [request["id"]]
    assert await order_status(retail_db.pool, order) == "pending"
