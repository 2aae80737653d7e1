"""The support graph served by `langgraph dev`, driven through the LangGraph SDK.

Proves what Studio relies on: `langgraph.json` loads the factory, the graph
runs under the server's own checkpointer with its context bound, a
high-risk call interrupts, and a resume command sent over HTTP finishes it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_client
from langgraph_sdk.client import LangGraphClient

from checkpoints.runtime import Database
from tests.integration.graph.helpers import order_status, user_with_orders
from tests.integration.studio.dev_server import dev_server, langgraph_cli, server_log


@pytest.fixture(scope="module")
def studio(
    retail_db: Database, db_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    """URL and work folder of a `langgraph dev` server over the module's seeded database."""
    cli = langgraph_cli()
    if cli is None:
        pytest.skip("the langgraph CLI is not installed: pip install 'langgraph-cli[inmem]'")
    workdir = tmp_path_factory.mktemp("langgraph_dev")
    with dev_server(cli, db_env, workdir) as url:
        yield url, workdir


async def test_cancel_interrupts_and_resumes_through_the_server(
    studio: tuple[str, Path], retail_db: Database
) -> None:
    url, workdir = studio
    user, (order,) = await user_with_orders(retail_db.pool, "pending")
    async with get_client(url=url) as client:
        await _cancel_approved(client, workdir, retail_db, user, order)


async def _cancel_approved(
    client: LangGraphClient, workdir: Path, retail_db: Database, user: str, order: str
) -> None:
    thread = await client.threads.create()
    tid = thread["thread_id"]

    await client.runs.wait(
        tid,
        "support",
        input={"text": f"please cancel {order}, ordered by mistake", "user_id": user},
    )
    assert (await client.threads.get(tid))["status"] == "interrupted", server_log(workdir)
    (request,) = _interrupt_requests(await client.threads.get_state(tid))
    assert request["skill"] == "cancel_pending_order_v1"
    assert request["args"] == {"order_id": order, "reason": "ordered by mistake"}
    assert await order_status(retail_db.pool, order) == "pending"

    resume = {request["id"]: {"decision": "approve"}}
    await client.runs.wait(tid, "support", command={"resume": resume})
    final = await client.threads.get_state(tid)
    assert final["values"]["status"] == "completed", server_log(workdir)
    assert not final["next"]
    assert (await client.threads.get(tid))["status"] == "idle"
    assert await order_status(retail_db.pool, order) == "cancelled"
    # The server kept its own checkpoints: the thread's history spans both runs.
    history = await client.threads.get_history(tid, limit=100)
    assert len(history) > 3


async def test_server_reports_no_json_context_schema(studio: tuple[str, Path]) -> None:
    # Studio builds its input form from these schemas; the pool-holding
    # context must not break that request.
    async with get_client(url=studio[0]) as client:
        (assistant,) = await client.assistants.search(graph_id="support")
        schemas = await client.assistants.get_schemas(assistant["assistant_id"])
    assert set(schemas["input_schema"]["properties"]) == {"text", "user_id"}
    assert "answer" in schemas["output_schema"]["properties"]
    assert not schemas.get("context_schema")
    assert schemas.get("config_schema") == {}


def _interrupt_requests(state: Any) -> list[dict[str, Any]]:
    return [
        request
        for task in state["tasks"]
        for interrupt in task.get("interrupts") or []
        for request in interrupt["value"]
    ]
