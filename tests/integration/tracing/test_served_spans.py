"""The served graph (`langgraph dev`, `graphs.studio`) exports a turn's spans too."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from checkpoints.opening import Database
from tests.integration.graph.helpers import order_status, user_with_orders
from tests.integration.server.dev_server import DevServer, dev_server, langgraph_cli
from tests.integration.server.served import client_for, token_for
from tests.integration.tracing.receiver import Receiver, Span, otlp_receiver

WAIT_FOR_EXPORT_S = 60.0
"""How long the server may take to export (it batches every 200 ms here)."""


@pytest.fixture(scope="module")
def exported() -> Iterator[Receiver]:
    """The module's OTLP receiver (the server lives as long as the module)."""
    with otlp_receiver() as found:
        yield found


@pytest.fixture(scope="module")
def served(
    retail_db: Database,
    db_env: dict[str, str],
    exported: Receiver,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[DevServer]:
    """A `langgraph dev` over the module's seeded database, exporting to `exported`."""
    cli = langgraph_cli()
    if cli is None:
        pytest.skip("the langgraph CLI is not installed: pip install 'langgraph-cli[inmem]'")
    env = {k: v for k, v in db_env.items() if not k.startswith("OTEL_")}
    env |= {"OTEL_EXPORTER_OTLP_ENDPOINT": exported.url, "OTEL_BSP_SCHEDULE_DELAY": "200"}
    with dev_server(cli, env, tmp_path_factory.mktemp("langgraph_dev")) as server:
        yield server


async def test_a_served_turn_is_a_root_span_with_its_nodes_and_skill_calls(
    served: DevServer, retail_db: Database, exported: Receiver
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "processed")
    async with client_for(served, await token_for(retail_db, "customer", user)) as client:
        thread = await client.threads.create()
        text = f"where is my package for {order}?"
        await client.runs.wait(thread["thread_id"], "support", input={"text": text})
    root = await _root(exported, thread["thread_id"])
    skills = [s for s in exported.spans if s.attributes.get("rolegraph.skill.id")]
    (track,) = [s for s in skills if s.attributes["rolegraph.skill.id"] == "track_shipment_v1"]
    node = next(s for s in exported.spans if s.span_id == track.parent_id)
    assert node.name == "node role_logistics_analyst" and node.parent_id == root.span_id
    assert track.attributes["rolegraph.skill.status"] == "success"
    assert root.attributes["rolegraph.audit_id"].startswith("aud")
    assert user.encode() not in b"".join(exported.raw), served.log()


async def test_an_approval_answered_through_the_server_links_to_the_run_that_asked(
    served: DevServer, retail_db: Database, exported: Receiver
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "pending")
    async with client_for(served, await token_for(retail_db, "customer", user)) as client:
        thread_id = str((await client.threads.create())["thread_id"])
        text = f"cancel {order}, ordered by mistake"
        await client.runs.wait(thread_id, "support", input={"text": text})
        await client.runs.wait(thread_id, "support", input={"text": "yes"})
        audit_id = (await client.threads.get_state(thread_id))["values"]["audit_id"]
    async with client_for(served, await token_for(retail_db, "operator", "tracer")) as client:
        approve = {"resume": {"decisions": [{"type": "approve"}]}}
        await client.runs.wait(thread_id, "support", command=approve)
    assert await order_status(retail_db.pool, order) == "cancelled"
    asking, resumed = await _roots(exported, audit_id, count=2)
    if "rolegraph.resumed_from" in asking.attributes:
        asking, resumed = resumed, asking
    assert asking.attributes["rolegraph.status"] == "interrupted"
    assert resumed.attributes["rolegraph.status"] == "completed"
    assert resumed.links == ((asking.trace_id, asking.span_id),)
    assert resumed.attributes["rolegraph.resumed_from"].startswith(
        f"00-{asking.trace_id}-{asking.span_id}-"
    )
    assert user.encode() not in b"".join(exported.raw)


async def _roots(exported: Receiver, audit_id: str, count: int) -> list[Span]:
    """The `count` root spans of a turn's runs, once the server exported them."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_FOR_EXPORT_S
    while loop.time() < deadline:
        roots = [
            s
            for s in exported.spans
            if s.name == "rolegraph turn" and s.attributes.get("rolegraph.audit_id") == audit_id
        ]
        if len(roots) >= count:
            return roots
        await asyncio.sleep(0.2)
    raise AssertionError(f"not {count} root spans of {audit_id} in {WAIT_FOR_EXPORT_S:.0f}s")


async def _root(exported: Receiver, thread_id: str):  # type: ignore[no-untyped-def]
    """The turn's root span, once the server exported the whole turn."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_FOR_EXPORT_S
    while loop.time() < deadline:
        roots = [
            s
            for s in exported.spans
            if s.name == "rolegraph turn" and s.attributes.get("rolegraph.thread_id") == thread_id
        ]
        if roots:
            return roots[0]
        await asyncio.sleep(0.2)
    raise AssertionError(f"no root span for {thread_id} exported in {WAIT_FOR_EXPORT_S:.0f}s")
