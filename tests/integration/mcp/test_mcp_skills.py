"""MCP-backed skills through the real skill runtime: a read and a write tool of
a tickets server on 127.0.0.1, with the whole middleware chain in front."""

from __future__ import annotations

import pytest

from checkpoints.opening import Database
from skills.contract import Approval
from skills.errors import ApprovalRequired
from skills.hashing import idempotency_key
from skills.runtime import SkillRuntime
from tests.fakes.approvals import record_approval
from tests.integration.mcp.tickets import TicketsServer, audit_statuses, request


async def test_a_read_skill_answers_what_the_tool_returned(
    runtime: SkillRuntime, tickets: TicketsServer, db: Database
) -> None:
    before = tickets.calls("get_ticket")
    req = request("get_ticket_v1", {"ticket_id": "T-2"})
    result = await runtime.call(req)
    assert result.ok, result.error_message
    assert result.payload == {
        "ticket_id": "T-2",
        "title": "VPN drops",
        "status": "open",
        "resolution": None,
    }
    again = await runtime.call(request("get_ticket_v1", {"ticket_id": "T-2"}))
    assert again.ok and not again.replayed  # reads are never replayed from the ledger
    assert tickets.calls("get_ticket") == before + 2
    assert await audit_statuses(db, req.audit_id) == [("success", None)]


async def test_a_write_needs_an_approval_and_its_replay_never_reaches_the_server(
    runtime: SkillRuntime, tickets: TicketsServer, db: Database
) -> None:
    args = {"ticket_id": "T-1", "resolution": "replaced the drum"}
    req = request("close_ticket_v1", args)
    with pytest.raises(ApprovalRequired) as asked:
        await runtime.call(req)
    assert asked.value.args == args and tickets.calls("close_ticket") == 0
    assert await audit_statuses(db, req.audit_id) == [("approval_required", None)]

    granted = Approval(
        approval_id="apr-mcp-1", skill_id="close_ticket_v1", args_hash=asked.value.args_hash
    )
    await record_approval(db.pool, granted, task_id=req.task_id)
    approved = req.model_copy(update={"approval": granted, "audit_id": req.audit_id + "-2"})
    done = await runtime.call(approved)
    assert done.ok, done.error_message
    assert done.payload["status"] == "closed" and not done.replayed
    assert tickets.calls("close_ticket") == 1
    assert tickets.ticket("T-1")["resolution"] == "replaced the drum"
    key = idempotency_key(req.run_id, req.task_id, "close_ticket_v1", asked.value.args_hash)
    assert tickets.write_keys()[-1] == key  # a server can deduplicate a retried attempt

    # The same task asking again (a node re-executed on resume): the ledger answers.
    replay = approved.model_copy(update={"audit_id": req.audit_id + "-3"})
    again = await runtime.call(replay)
    assert again.ok and again.replayed and again.payload == done.payload
    assert tickets.calls("close_ticket") == 1
    assert await audit_statuses(db, replay.audit_id) == [("replayed", None)]


async def test_the_gates_stop_a_call_before_the_server_sees_it(
    runtime: SkillRuntime, tickets: TicketsServer, db: Database
) -> None:
    before = tickets.calls("get_ticket"), tickets.calls("close_ticket")
    denied = request("close_ticket_v1", {"ticket_id": "T-2", "resolution": "nope"}, role="reader")
    invalid = request("get_ticket_v1", {"ticket_id": "T-1 OR 1=1"})
    results = [await runtime.call(denied), await runtime.call(invalid)]
    assert [r.error_code for r in results] == ["permission_denied", "validation_error"]
    assert (tickets.calls("get_ticket"), tickets.calls("close_ticket")) == before
    assert await audit_statuses(db, denied.audit_id) == [("denied", "permission_denied")]


async def test_a_tool_error_is_a_skill_error_the_chain_records(
    runtime: SkillRuntime, tickets: TicketsServer, db: Database
) -> None:
    args = {"ticket_id": "T-3", "resolution": "already done"}
    req = request("close_ticket_v1", args)
    with pytest.raises(ApprovalRequired) as asked:
        await runtime.call(req)
    granted = Approval(
        approval_id="apr-mcp-2", skill_id="close_ticket_v1", args_hash=asked.value.args_hash
    )
    await record_approval(db.pool, granted, task_id=req.task_id)
    before = tickets.calls("close_ticket")
    approved = req.model_copy(update={"approval": granted, "audit_id": req.audit_id + "-2"})
    result = await runtime.call(approved)
    assert (result.status, result.error_code, result.retries) == ("error", "mcp_tool_error", 0)
    assert result.error_message is not None and "T-3 is closed, not open" in result.error_message
    assert tickets.calls("close_ticket") == before + 1
    assert await audit_statuses(db, approved.audit_id) == [("error", "mcp_tool_error")]
