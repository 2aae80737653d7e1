"""Helpers for the MCP skill tests: the tickets server as a subprocess, its
call counts, editable copies of the MCP test catalog, requests and roles."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from checkpoints.opening import Database
from skills.contract import SkillRequest
from tests.smtp_servers import free_port

SERVER_SCRIPT = Path(__file__).with_name("tickets_server.py")
CATALOG = Path(__file__).resolve().parents[2] / "fixtures" / "mcp_catalog"
STARTUP_SECONDS = 60.0


@dataclass
class TicketsServer:
    """One running tickets server and the state file it writes through to."""

    process: subprocess.Popen[bytes]
    state: Path
    url: str

    def calls(self, tool: str) -> int:
        """How many times the server ran `tool`."""
        return tool_calls(self.state, tool)

    def write_keys(self) -> list[str]:
        """The idempotency key (`_meta`) of every write the server received, in order."""
        return list(json.loads(self.state.read_text())["keys"])

    def ticket(self, ticket_id: str) -> dict[str, Any]:
        return dict(json.loads(self.state.read_text())["tickets"][ticket_id])

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def start_http_server(state: Path, log: Path, port: int | None = None) -> TicketsServer:
    """The tickets server on 127.0.0.1:<port, else a free one>, answering once it listens."""
    port = port or free_port()
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, str(SERVER_SCRIPT), "--state", str(state), "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    _wait_listening(process, port, log)
    return TicketsServer(process, state, f"http://127.0.0.1:{port}/mcp")


def _wait_listening(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"tickets server exited: {log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"tickets server did not listen on {port} within {STARTUP_SECONDS}s")


def catalog_copy(
    into: Path,
    *,
    servers: dict[str, Any] | None = None,
    metadata: dict[str, dict[str, Any]] | None = None,
) -> Path:
    """A copy of the MCP test catalog with `mcp_servers.yaml` and metadata fields replaced."""
    target = into / "catalog"
    shutil.copytree(CATALOG, target)
    if servers is not None:
        (target / "mcp_servers.yaml").write_text(yaml.safe_dump({"servers": servers}))
    for package, fields in (metadata or {}).items():
        path = target / package / "metadata.yaml"
        data = yaml.safe_load(path.read_text())
        data.update(fields)
        path.write_text(yaml.safe_dump(data))
    return target


class NoSleep:
    """Backoff waits recorded, not slept: retries stay fast and countable."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@dataclass(frozen=True)
class Role:
    name: str
    execute: frozenset[str] = frozenset()
    deny: frozenset[str] = frozenset()
    read: frozenset[str] = frozenset()

    def required_context(self, skill_id: str) -> tuple[str, ...]:
        return ()


ROLES = {
    "desk": Role("desk", frozenset({"get_ticket_v1", "close_ticket_v1"})),
    "reader": Role("reader", frozenset({"get_ticket_v1"})),
}


def request(skill_id: str, args: dict[str, Any], **fields: Any) -> SkillRequest:
    """A request by the desk with a fresh audit and task id unless given."""
    fields.setdefault("role", "desk")
    fields.setdefault("audit_id", "aud-" + uuid.uuid4().hex[:10])
    fields.setdefault("task_id", "t-" + uuid.uuid4().hex[:8])
    fields.setdefault("run_id", "run-mcp")
    return SkillRequest(skill_id=skill_id, args=args, **fields)


async def audit_statuses(db: Database, audit_id: str) -> list[tuple[str, str | None]]:
    """(status, error code) of each call row of one audit id."""
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT status, error_code FROM audit_events WHERE audit_id = %s"
            " AND status NOT LIKE 'breaker_%%' ORDER BY id",
            (audit_id,),
        )
        return [(r["status"], r["error_code"]) for r in await cur.fetchall()]


def tool_calls(state: Path, tool: str) -> int:
    """How many times the server(s) writing `state` ran `tool`."""
    return int(json.loads(state.read_text())["calls"].get(tool, 0))


def server_starts(state: Path) -> int:
    """How many server processes have used this state file."""
    return len(json.loads(state.read_text())["pids"])
