"""A generic LangChain v1 human-in-the-loop client answers the served graph's approvals.

The operator side of these tests uses only LangChain's schema: it reads the
interrupt's `action_requests` / `review_configs` and resumes with
`Command(resume={"decisions": [...]})`, never a rolegraph request id. A value
that answers nothing, or not as the request allows, is an HTTP error the
client sees, and the thread stays interrupted and answerable.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from langgraph_sdk.client import LangGraphClient

from checkpoints.opening import Database
from tests.cli import run_cli
from tests.integration.graph.helpers import order_status, user_with_orders
from tests.integration.server.dev_server import DevServer
from tests.integration.server.served import client_for, token_for

CANCEL = "cancel_pending_order_v1"


async def _waiting_cancel(served: DevServer, db: Database, skip: int) -> tuple[str, str]:
    """A customer's confirmed cancel, waiting for an operator: (thread id, order)."""
    user, (order,) = await user_with_orders(db.pool, "pending", skip=skip)
    async with client_for(served, await token_for(db, "customer", user)) as client:
        tid = str((await client.threads.create())["thread_id"])
        asked = await client.runs.wait(
            tid, "support", input={"text": f"cancel {order}, ordered by mistake"}
        )
        assert asked["status"] == "needs_input", asked  # type: ignore[index,call-overload]
        await client.runs.wait(tid, "support", input={"text": "yes"})
        assert (await client.threads.get(tid))["status"] == "interrupted"
    return tid, order


async def _hitl_request(client: LangGraphClient, tid: str) -> dict[str, Any]:
    """The one interrupt's value, as a LangChain HITL client reads it."""
    state = await client.threads.get_state(tid)
    (interrupt,) = [i for task in state["tasks"] for i in task.get("interrupts") or []]
    value: dict[str, Any] = interrupt["value"]
    return value


async def _refused(status: int, client: LangGraphClient, tid: str, resume: Any) -> str:
    with pytest.raises(httpx.HTTPStatusError) as refused:
        await client.runs.wait(tid, "support", command={"resume": resume})
    assert refused.value.response.status_code == status, refused.value.response.text
    return refused.value.response.text


async def _successes(db: Database, tid: str) -> int:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM audit_events WHERE thread_id = %s AND skill = %s"
            " AND status = 'success'",
            (tid, CANCEL),
        )
        row = await cur.fetchone()
    assert row is not None
    return int(row["n"])


async def _decided(db: Database, tid: str) -> tuple[str, dict[str, Any] | None]:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT status, decided_args FROM approvals WHERE thread_id = %s", (tid,)
        )
        (row,) = await cur.fetchall()
    return row["status"], row["decided_args"]


async def test_a_generic_client_approves_with_the_langchain_schema_and_errors_are_seen(
    served: DevServer, retail_db: Database, db_env: dict[str, str]
) -> None:
    tid, order = await _waiting_cancel(served, retail_db, skip=50)
    async with client_for(served, await token_for(retail_db, "operator", "hitl")) as client:
        request = await _hitl_request(client, tid)
        # Rolegraph's own fields ride along: the operator's inbox lists the request.
        (mine,) = request["requests"]
        assert mine["args"]["order_id"] == order
        inbox = run_cli(db_env, "inbox")
        assert inbox.returncode == 0 and mine["id"] in inbox.stdout, inbox.stderr
        (action,) = request["action_requests"]
        assert action["name"] == CANCEL and action["args"]["order_id"] == order
        assert action["description"]
        (review,) = request["review_configs"]
        assert review["action_name"] == CANCEL
        assert review["allowed_decisions"] == ["approve", "edit", "reject"]
        assert review["args_schema"]["properties"]["order_id"]["const"] == order

        other = {"name": CANCEL, "args": {**action["args"], "order_id": "#W0000000"}}
        renamed = {"name": "modify_pending_order_items_v1", "args": action["args"]}
        bad_reason = {"name": CANCEL, "args": {**action["args"], "reason": "bored"}}
        for resume, says in [
            ({"decisions": [{"type": "approve"}, {"type": "approve"}]}, "2 decision(s) for 1"),
            ({"decisions": [{"type": "respond", "message": "hi"}]}, "'respond' is not allowed"),
            ({"decisions": [{"type": "edit", "edited_action": other}]}, "keep the record"),
            ({"decisions": [{"type": "edit", "edited_action": renamed}]}, "keeps the action"),
            ({"decisions": [{"type": "edit", "edited_action": bad_reason}]}, "not valid for"),
            ({"approved": True}, "no pending request"),
            ({"apr-unknown": {"decision": "approve"}}, "no pending request"),
        ]:
            assert says in await _refused(422, client, tid, resume)
        # Nothing ran and the thread still waits on the same question.
        assert (await client.threads.get(tid))["status"] == "interrupted"
        assert await _hitl_request(client, tid) == request
        assert await order_status(retail_db.pool, order) == "pending"

        await client.runs.wait(
            tid, "support", command={"resume": {"decisions": [{"type": "approve"}]}}
        )
        assert (await client.threads.get_state(tid))["values"]["status"] == "completed"
        # A second answer finds nothing waiting: an error, and the write stays single.
        await _refused(409, client, tid, {"decisions": [{"type": "approve"}]})
    assert await order_status(retail_db.pool, order) == "cancelled"
    assert await _successes(retail_db, tid) == 1
    assert await _decided(retail_db, tid) == (
        "approved",
        {"order_id": order, "reason": "ordered by mistake"},
    )


async def test_an_edit_and_a_reject_through_the_langchain_schema(
    served: DevServer, retail_db: Database
) -> None:
    edited_tid, edited_order = await _waiting_cancel(served, retail_db, skip=51)
    rejected_tid, rejected_order = await _waiting_cancel(served, retail_db, skip=52)
    async with client_for(served, await token_for(retail_db, "operator", "hitl")) as client:
        (action,) = (await _hitl_request(client, edited_tid))["action_requests"]
        edit = {
            "type": "edit",
            "edited_action": {
                "name": action["name"],
                "args": {**action["args"], "reason": "no longer needed"},
            },
        }
        await client.runs.wait(edited_tid, "support", command={"resume": {"decisions": [edit]}})
        reject = {"type": "reject", "message": "the customer called to keep it"}
        await client.runs.wait(rejected_tid, "support", command={"resume": {"decisions": [reject]}})
        for tid in (edited_tid, rejected_tid):
            assert (await client.threads.get_state(tid))["values"]["status"] == "completed"
    assert await order_status(retail_db.pool, edited_order) == "cancelled"
    assert await _decided(retail_db, edited_tid) == (
        "edited",
        {"order_id": edited_order, "reason": "no longer needed"},
    )
    assert await order_status(retail_db.pool, rejected_order) == "pending"
    assert await _successes(retail_db, rejected_tid) == 0
    assert (await _decided(retail_db, rejected_tid))[0] == "rejected"


async def test_an_escalation_is_answered_with_respond(
    served: DevServer, retail_db: Database
) -> None:
    user, _ = await user_with_orders(retail_db.pool, "delivered", skip=50)
    async with client_for(served, await token_for(retail_db, "customer", user)) as client:
        tid = str((await client.threads.create())["thread_id"])
        await client.runs.wait(tid, "support", input={"text": "我要转人工客服"})
    async with client_for(served, await token_for(retail_db, "operator", "hitl")) as client:
        request = await _hitl_request(client, tid)
        assert [a["name"] for a in request["action_requests"]] == ["escalation"]
        assert request["review_configs"] == [
            {"action_name": "escalation", "allowed_decisions": ["respond"]}
        ]
        assert "not allowed" in await _refused(
            422, client, tid, {"decisions": [{"type": "approve"}]}
        )
        respond = {"type": "respond", "message": "We will call you today."}
        await client.runs.wait(tid, "support", command={"resume": {"decisions": [respond]}})
        values = (await client.threads.get_state(tid))["values"]
    assert values["status"] == "completed"
    assert "We will call you today." in values["answer"]
