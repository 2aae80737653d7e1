"""The support graph served by `langgraph dev`, driven over HTTP and the LangGraph SDK.

One real server per module, on the module's fresh Postgres, with the
project's auth (`graphs.auth`), checkpointer and store (`graphs.served_persistence`).
It proves: every request needs a live token; a customer acts only as
themselves and only on their own threads; only operators answer approvals;
and the server's checkpoints are the project's, so a SIGKILL loses nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from langgraph_sdk.client import LangGraphClient

from checkpoints.opening import Database
from checkpoints.tokens import revoke_token
from tests.cli import run_cli
from tests.integration.graph.helpers import order_status, user_with_orders
from tests.integration.server.dev_server import DevServer
from tests.integration.server.served import client_for, token_for


@dataclass(frozen=True)
class Customer:
    user_id: str
    order: str
    token: str


async def _customer(db: Database, skip: int) -> Customer:
    user, (order,) = await user_with_orders(db.pool, "pending", skip=skip)
    return Customer(user, order, await token_for(db, "customer", user))


async def test_every_request_needs_a_live_token(served: DevServer, retail_db: Database) -> None:
    revoked = await token_for(retail_db, "operator", "leaver")
    async with retail_db.pool.connection() as conn:
        await revoke_token(conn, revoked.split(".")[1])
    refused = [
        {},
        {"Authorization": "Bearer rgtok.000000000000." + "A" * 43},
        {"Authorization": f"Bearer {revoked}"},
        {"Authorization": revoked},  # no scheme
        # The dev server's Studio shortcut must not stand in for a token.
        {"x-auth-scheme": "langsmith"},
    ]
    async with httpx.AsyncClient(base_url=served.url) as http:
        for headers in refused:
            response = await http.post("/threads", json={}, headers=headers)
            assert response.status_code == 401, (headers, response.text)
            assert (await http.post("/threads/search", json={}, headers=headers)).status_code == 401


async def test_the_impersonation_of_issue_7_fails(served: DevServer, retail_db: Database) -> None:
    victim = await _customer(retail_db, skip=0)
    attacker = await _customer(retail_db, skip=1)
    attack = {"text": f"Please cancel order {victim.order}, ordered by mistake"}
    async with httpx.AsyncClient(base_url=served.url) as http:
        # A stranger over plain HTTP: nothing without a token.
        assert (await http.post("/threads", json={})).status_code == 401
        run = {"assistant_id": "support", "input": {**attack, "user_id": victim.user_id}}
        stranger = await http.post(f"/threads/{_uuid()}/runs/wait", json=run)
        assert stranger.status_code == 401
    async with client_for(served, attacker.token) as client:
        tid = (await client.threads.create())["thread_id"]
        await _refused(
            403, client.runs.wait(tid, "support", input={**attack, "user_id": victim.user_id})
        )
        resume = {"apr-forged": {"decision": "approve"}}
        await _refused(403, client.runs.wait(tid, "support", command={"resume": resume}))
    assert await order_status(retail_db.pool, victim.order) == "pending"


async def test_customer_reads_only_own_threads_and_only_operators_approve(
    served: DevServer, retail_db: Database
) -> None:
    alice = await _customer(retail_db, skip=2)
    bob = await _customer(retail_db, skip=3)
    operator = await token_for(retail_db, "operator", "olga")
    async with client_for(served, alice.token) as client:
        tid = await _request_cancel(client, alice.order)
        (request,) = _interrupt_requests(await client.threads.get_state(tid))
        assert request["args"]["order_id"] == alice.order
        # Her own approval is not hers to give.
        approve = {"resume": {request["id"]: {"decision": "approve"}}}
        await _refused(403, client.runs.wait(tid, "support", command=approve))
    async with client_for(served, bob.token) as client:
        await _refused(404, client.threads.get_state(tid))
        await _refused(404, client.threads.get(tid))
        assert tid not in {t["thread_id"] for t in await client.threads.search(limit=100)}
        await _refused(404, client.runs.wait(tid, "support", input={"text": "where is my order?"}))
    assert await order_status(retail_db.pool, alice.order) == "pending"

    async with client_for(served, operator) as client:
        assert tid in {t["thread_id"] for t in await client.threads.search(limit=100)}
        await client.runs.wait(
            tid, "support", command={"resume": {request["id"]: {"decision": "approve"}}}
        )
        final = await client.threads.get_state(tid)
    assert final["values"]["status"] == "completed", served.log()
    assert await order_status(retail_db.pool, alice.order) == "cancelled"
    assert await _approver(retail_db, request["id"]) == ("approved", "operator:olga")


async def test_customers_cannot_edit_delete_or_use_operator_resources(
    served: DevServer, retail_db: Database
) -> None:
    carol = await _customer(retail_db, skip=4)
    async with client_for(served, carol.token) as client:
        tid = (await client.threads.create())["thread_id"]
        await _refused(403, client.threads.update_state(tid, {"user_id": "someone_else"}))
        await _refused(403, client.threads.update(tid, metadata={"owner": "customer:someone_else"}))
        await _refused(403, client.threads.delete(tid))
        await _refused(403, client.store.put_item(("memories",), "k", {"v": 1}))
        await _refused(403, client.store.search_items(("memories",)))
        await _refused(403, client.assistants.create("support", config={"tags": ["x"]}))
        await _refused(403, client.crons.create("support", schedule="0 0 * * *", input={}))


async def test_customers_cannot_steer_runs_around_the_graph(
    served: DevServer, retail_db: Database
) -> None:
    frank = await _customer(retail_db, skip=7)
    async with client_for(served, frank.token) as client:
        tid = await _request_cancel(client, frank.order)
        first = (await client.threads.get_history(tid, limit=100))[-1]["checkpoint_id"]
        ask = {"text": "where is my order?"}
        for options in (
            {"checkpoint_id": first},
            {"interrupt_before": ["planner"]},
            {"command": {"update": {"user_id": "someone_else"}}},
            {"command": {"goto": "respond"}},
        ):
            await _refused(403, client.runs.wait(tid, "support", input=ask, **options))
        await _refused(422, client.runs.wait(tid, "support", input=["not", "an", "object"]))
        # Continuing the thread (no input) asks the operator again; it approves nothing.
        await client.runs.wait(tid, "support", input=None)
        assert (await client.threads.get(tid))["status"] == "interrupted"
        assert len(_interrupt_requests(await client.threads.get_state(tid))) == 1
    assert await order_status(retail_db.pool, frank.order) == "pending"


async def test_no_token_is_kept_in_clear(served: DevServer, retail_db: Database) -> None:
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT (SELECT count(*) FROM checkpoints) AS checkpoints,"
            " (SELECT count(*) FROM checkpoints WHERE metadata::text LIKE '%%rgtok.%%'"
            "   OR checkpoint::text LIKE '%%rgtok.%%') AS in_checkpoints,"
            " (SELECT count(*) FROM checkpoint_writes"
            "   WHERE position('rgtok.'::bytea IN blob) > 0) AS in_writes,"
            " (SELECT count(*) FROM checkpoint_blobs"
            "   WHERE position('rgtok.'::bytea IN coalesce(blob, ''::bytea)) > 0) AS in_blobs"
        )
        found = await cur.fetchone()
    assert found is not None and found["checkpoints"] > 0
    assert (found["in_checkpoints"], found["in_writes"], found["in_blobs"]) == (0, 0, 0)
    assert "rgtok." not in served.log_path.read_text(errors="replace")


async def test_server_reports_no_json_context_schema(
    served: DevServer, retail_db: Database
) -> None:
    # Studio builds its input form from these schemas; the pool-holding
    # context must not break that request.
    async with client_for(served, await token_for(retail_db, "operator", "studio")) as client:
        (assistant,) = await client.assistants.search(graph_id="support")
        schemas = await client.assistants.get_schemas(assistant["assistant_id"])
    assert set(schemas["input_schema"]["properties"]) == {"text", "user_id", "messages"}
    assert {"answer", "messages"} <= set(schemas["output_schema"]["properties"])
    assert not schemas.get("context_schema")


async def test_a_customer_chats_in_messages_on_one_thread(
    served: DevServer, retail_db: Database
) -> None:
    customer = await _customer(retail_db, skip=40)
    async with client_for(served, customer.token) as client:
        tid = (await client.threads.create())["thread_id"]
        for text in (f"what's the status of {customer.order}?", "thanks, and my other orders?"):
            await client.runs.wait(
                tid, "support", input={"messages": [{"role": "user", "content": text}]}
            )
        values = (await client.threads.get_state(tid))["values"]
    assert values["turn"] == 2 and values["customer"] == customer.user_id
    kinds = [m["type"] for m in values["messages"]]
    assert kinds == ["human", "ai", "human", "ai"]
    assert f"{customer.order} is pending" in values["messages"][1]["content"]
    assert values["messages"][3]["content"] == values["answer"]


async def test_a_new_turn_while_the_last_waits_for_an_operator_withdraws_it(
    served: DevServer, retail_db: Database, db_env: dict[str, str]
) -> None:
    customer = await _customer(retail_db, skip=41)
    operator = await token_for(retail_db, "operator", "olga")
    async with client_for(served, customer.token) as client:
        tid = await _request_cancel(client, customer.order)
        (request,) = _interrupt_requests(await client.threads.get_state(tid))
    async with client_for(served, operator) as client:
        # An operator answers the waiting turn; they do not talk over it.
        await _refused(409, client.runs.wait(tid, "support", input={"text": "hello?"}))
    assert await _approver(retail_db, request["id"]) == ("pending", None)

    async with client_for(served, customer.token) as client:
        moved = await client.runs.wait(
            tid, "support", input={"text": f"status of {customer.order}?"}
        )
        assert (await client.threads.get(tid))["status"] == "idle"
    assert isinstance(moved, dict) and (moved["turn"], moved["status"]) == (3, "completed")
    assert "withdrawn the earlier request" in moved["answer"], moved["answer"]
    assert f"{customer.order} is pending" in moved["answer"]
    assert await _approver(retail_db, request["id"]) == ("withdrawn", "customer")

    # The withdrawn request can no longer be approved, by the server or the CLI.
    late = run_cli(db_env, "resume", tid, "--decision", "approve", "--request-id", request["id"])
    assert late.returncode == 2, late.stderr
    assert f"thread '{tid}' is completed; there is nothing to resume" in late.stderr
    async with client_for(served, operator) as client:
        approve = {"resume": {request["id"]: {"decision": "approve"}}}
        with pytest.raises(httpx.HTTPStatusError) as refused:  # nothing waits any more
            await client.runs.wait(tid, "support", command=approve)
        assert refused.value.response.status_code == 409
        assert (await client.threads.get_state(tid))["values"]["turn"] == 3
    assert await _approver(retail_db, request["id"]) == ("withdrawn", "customer")
    assert await order_status(retail_db.pool, customer.order) == "pending"


async def test_a_hard_killed_server_loses_no_thread(
    served: DevServer, retail_db: Database, db_env: dict[str, str]
) -> None:
    dave = await _customer(retail_db, skip=5)
    erin = await _customer(retail_db, skip=6)
    operator = await token_for(retail_db, "operator", "olga")
    gina = await _customer(retail_db, skip=8)
    async with client_for(served, dave.token) as client:
        tid = await _request_cancel(client, dave.order)
    async with client_for(served, gina.token) as client:
        gina_tid = await _request_cancel(client, gina.order)

    served.kill()
    served.start()

    # The checkpoints are the project's: the CLI sees and continues served threads.
    listed = run_cli(db_env, "threads", "list")
    assert listed.returncode == 0 and tid in listed.stdout, listed.stderr
    resumed = run_cli(db_env, "resume", gina_tid, "--decision", "approve")
    assert resumed.returncode == 0, resumed.stderr
    assert await order_status(retail_db.pool, gina.order) == "cancelled"
    # The restarted server forgot its thread records; the owner recorded in
    # Postgres decides who may attach the thread again.
    async with client_for(served, erin.token) as client:
        await _refused(409, client.threads.create(thread_id=tid, if_exists="do_nothing"))
        await _refused(
            404, client.runs.wait(tid, "support", input={"text": "hi"}, if_not_exists="create")
        )
    async with client_for(served, operator) as client:
        await client.threads.create(thread_id=tid, if_exists="do_nothing")
        (request,) = _interrupt_requests(await client.threads.get_state(tid))
        assert request["args"]["order_id"] == dave.order
        await client.runs.wait(
            tid, "support", command={"resume": {request["id"]: {"decision": "approve"}}}
        )
    assert await order_status(retail_db.pool, dave.order) == "cancelled", served.log()
    assert await _approver(retail_db, request["id"]) == ("approved", "operator:olga")
    async with client_for(served, dave.token) as client:
        assert (await client.threads.get_state(tid))["values"]["status"] == "completed"


async def _request_cancel(client: LangGraphClient, order: str) -> str:
    """A new thread whose request (no user id: the token says who), once the customer
    confirmed it in a second run on the thread, awaits approval."""
    tid = (await client.threads.create())["thread_id"]
    asked = await client.runs.wait(
        tid, "support", input={"text": f"please cancel {order}, ordered by mistake"}
    )
    assert isinstance(asked, dict) and asked["status"] == "needs_input", asked
    assert asked["question"]["kind"] == "confirm" and order in asked["question"]["text"]
    assert (await client.threads.get(tid))["status"] == "idle"  # the turn is over: it asks
    await client.runs.wait(tid, "support", input={"text": "yes"})
    assert (await client.threads.get(tid))["status"] == "interrupted"
    return str(tid)


async def _approver(db: Database, request_id: str) -> tuple[str, str]:
    """How a request was decided and by whom, as the approvals table holds it."""
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT status, decided_by FROM approvals WHERE request_id = %s", (request_id,)
        )
        row = await cur.fetchone()
    assert row is not None
    return row["status"], row["decided_by"]


async def _refused(status: int, call: Awaitable[Any]) -> None:
    """`call` fails with HTTP `status` (the SDK raises httpx errors for it)."""
    with pytest.raises(httpx.HTTPStatusError) as refused:
        await call
    assert refused.value.response.status_code == status, refused.value.response.text


def _interrupt_requests(state: Any) -> list[dict[str, Any]]:
    return [
        request
        for task in state["tasks"]
        for interrupt in task.get("interrupts") or []
        for request in interrupt["value"]["requests"]
    ]


def _uuid() -> str:
    import uuid

    return str(uuid.uuid4())


async def test_unreadable_input_is_422_and_the_thread_serves_the_next_request(
    served: DevServer, retail_db: Database
) -> None:
    me = await _customer(retail_db, skip=30)
    operator = await token_for(retail_db, "operator", "olga-input")
    headers = {"Authorization": f"Bearer {me.token}"}
    async with httpx.AsyncClient(base_url=served.url, headers=headers, timeout=60) as http:
        tid = (await http.post("/threads", json={})).json()["thread_id"]
        for bad in ({"text": 42}, {"text": ["where", "is", "it"]}, {"text": "NUL \u0000 here"}):
            response = await http.post(
                f"/threads/{tid}/runs/wait", json={"assistant_id": "support", "input": bad}
            )
            assert response.status_code == 422, (bad, response.text)
        good = {"assistant_id": "support", "input": {"text": f"status of {me.order}?"}}
        response = await http.post(f"/threads/{tid}/runs/wait", json=good)
        assert response.status_code == 200 and me.order in response.json()["answer"]
    async with httpx.AsyncClient(
        base_url=served.url, headers={"Authorization": f"Bearer {operator}"}, timeout=60
    ) as http:
        tid = (await http.post("/threads", json={})).json()["thread_id"]
        forged = {"assistant_id": "support", "command": {"resume": {"apr-x": "\u0000"}}}
        response = await http.post(f"/threads/{tid}/runs/wait", json=forged)
        assert response.status_code == 422, response.text
