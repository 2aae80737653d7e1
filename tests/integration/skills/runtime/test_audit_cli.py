"""`rolegraph audit AUDIT_ID` prints the chain of one audit id in order."""

from __future__ import annotations

from runtime_helpers import request

from checkpoints.audit import fetch_audit_chain
from checkpoints.errors import NotFound
from checkpoints.opening import Database
from skills.runtime import SkillRuntime
from tests.cli import run_cli


async def test_audit_chain_is_printed_in_order(
    runtime: SkillRuntime, db: Database, db_env: dict[str, str]
) -> None:
    req = request("primary_lookup_v1", {"key": "k9"}, node="role:lookup", step=4)
    await runtime.call(req)
    await runtime.call(request("echo_v1", {"text": "hi"}, audit_id=req.audit_id, step=5))
    async with db.pool.connection() as conn:
        chain = await fetch_audit_chain(conn, req.audit_id)
    assert [r.event.skill for r in chain] == ["cached_lookup_v1", "primary_lookup_v1", "echo_v1"]

    shown = run_cli(db_env, "audit", req.audit_id)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == f"audit {req.audit_id}: 3 event(s)"
    assert lines[1].split()[:6] == ["time", "step", "node", "role", "skill@version", "status"]
    body = [line.split() for line in lines[2:]]
    assert [cols[5] for cols in body] == [
        "cached_lookup_v1@1.0.0",
        "primary_lookup_v1@1.0.0",
        "echo_v1@1.0.0",
    ]
    assert body[1][6:9] == ["fallback", "network_error", "3"]
    assert body[1][3:5] == ["role:lookup", "operator"]


async def test_unknown_audit_id_is_one_line_and_exit_2(
    db: Database, db_env: dict[str, str]
) -> None:
    async with db.pool.connection() as conn:
        try:
            await fetch_audit_chain(conn, "no-such-audit")
        except NotFound:
            pass
        else:
            raise AssertionError("fetch_audit_chain must raise NotFound")
    result = run_cli(db_env, "audit", "no-such-audit")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "no audit events for audit id 'no-such-audit'" in lines[0]
