"""Malformed run input through `langgraph dev` is refused by the graph, not crashed on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_client

from checkpoints.runtime import Database
from tests.integration.graph.helpers import user_with_orders
from tests.integration.studio.dev_server import dev_server, langgraph_cli, server_log


@pytest.fixture(scope="module")
def studio(
    retail_db: Database, db_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    cli = langgraph_cli()
    if cli is None:
        pytest.skip("the langgraph CLI is not installed: pip install 'langgraph-cli[inmem]'")
    workdir = tmp_path_factory.mktemp("langgraph_dev_bad_input")
    with dev_server(cli, db_env, workdir) as url:
        yield url, workdir


async def test_non_string_input_is_refused_and_the_thread_serves_the_next_request(
    studio: tuple[str, Path], retail_db: Database
) -> None:
    url, workdir = studio
    user, (order,) = await user_with_orders(retail_db.pool, "processed", skip=5)
    bad_inputs: list[dict[str, Any]] = [
        {"text": 42, "user_id": user},
        {"text": ["where", "is", "it"], "user_id": user},
        {"text": f"status of {order}?", "user_id": 7},
    ]
    async with get_client(url=url) as client:
        for bad in bad_inputs:
            thread = await client.threads.create()
            tid = thread["thread_id"]
            await client.runs.wait(tid, "support", input=bad)
            state = await client.threads.get_state(tid)
            values: dict[str, Any] = state["values"]  # type: ignore[assignment]
            assert values.get("status") == "refused", (bad, values, server_log(workdir))
            assert "can't read that request" in values["answer"]
            await client.runs.wait(
                tid, "support", input={"text": f"status of {order}?", "user_id": user}
            )
            again: dict[str, Any] = (await client.threads.get_state(tid))["values"]  # type: ignore[assignment]
            assert again.get("status") == "completed" and order in again["answer"], again
