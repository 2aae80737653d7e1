"""The same skills with the server started over stdio: one process serves every
call of the runtime's event loop (the session is reused), and the gates apply."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from checkpoints.opening import Database
from skills.context import RuntimeContext
from skills.contract import Approval
from skills.errors import ApprovalRequired
from skills.mcp import close_sessions
from skills.registry import load_catalog
from skills.runtime import SkillRuntime
from tests.fakes.approvals import record_approval
from tests.integration.mcp.tickets import (
    ROLES,
    SERVER_SCRIPT,
    NoSleep,
    catalog_copy,
    request,
    server_starts,
    tool_calls,
)


async def test_stdio_server_serves_reads_and_an_approved_write_from_one_process(
    db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state.json"
    monkeypatch.setenv("ROLEGRAPH_MCP_PYTHON", sys.executable)
    stdio = {
        "transport": "stdio",
        "command": "${ROLEGRAPH_MCP_PYTHON}",
        "args": [str(SERVER_SCRIPT), "--stdio", "--state", str(state)],
    }
    registry = load_catalog(catalog_copy(tmp_path, servers={"tickets": stdio}))
    assert server_starts(state) == 1  # the load-time tool check, closed again
    runtime = SkillRuntime(registry, ROLES, RuntimeContext(pool=db.pool), sleep=NoSleep())
    try:
        reads = [
            await runtime.call(request("get_ticket_v1", {"ticket_id": t})) for t in ("T-1", "T-2")
        ]
        assert [r.payload["title"] for r in reads] == ["Printer jams", "VPN drops"]

        req = request("close_ticket_v1", {"ticket_id": "T-2", "resolution": "new router"})
        with pytest.raises(ApprovalRequired) as asked:
            await runtime.call(req)
        granted = Approval(
            approval_id="apr-stdio", skill_id="close_ticket_v1", args_hash=asked.value.args_hash
        )
        await record_approval(db.pool, granted, task_id=req.task_id)
        approved = req.model_copy(update={"approval": granted, "audit_id": req.audit_id + "-2"})
        done = await runtime.call(approved)
        replay = await runtime.call(approved.model_copy(update={"audit_id": req.audit_id + "-3"}))
    finally:
        await close_sessions(s.executor for s in registry)
    assert done.ok and done.payload["status"] == "closed", done.error_message
    assert replay.replayed and replay.payload == done.payload
    assert (tool_calls(state, "get_ticket"), tool_calls(state, "close_ticket")) == (2, 1)
    assert server_starts(state) == 2  # one more process for all the runtime's calls
