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


async def test_a_caller_without_identity_cannot_act_for_a_customer(
    studio: tuple[str, Path], retail_db: Database
) -> None:
    url, workdir = studio
    user, (order,) = await user_with_orders(retail_db.pool, "pending")
    async with get_client(url=url) as client:
        thread = await client.threads.create()
        await client.runs.wait(
            thread["thread_id"],
            "support",
            input={"text": f"please cancel {order}, ordered by mistake", "user_id": user},
        )
        state = await client.threads.get_state(thread["thread_id"])
    assert state["values"]["status"] == "refused", server_log(workdir)
    assert "can't tell who you are" in state["values"]["answer"]
    assert await order_status(retail_db.pool, order) == "pending"


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
