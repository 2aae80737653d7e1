"""What the tool answers is untrusted, and the server may be gone: both end as
the chain's ordinary failures (result check, retry, timeout), never a crash."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from checkpoints.opening import Database
from skills.context import RuntimeContext
from skills.mcp import close_sessions
from skills.registry import SkillRegistry, load_catalog, load_package
from skills.runtime import SkillRuntime
from tests.integration.mcp.tickets import (
    ROLES,
    NoSleep,
    TicketsServer,
    catalog_copy,
    request,
    start_http_server,
)


def _runtime(db: Database, registry: SkillRegistry, sleep: NoSleep) -> SkillRuntime:
    return SkillRuntime(registry, ROLES, RuntimeContext(pool=db.pool), sleep=sleep)


def _tool(tool: str) -> dict[str, dict[str, object]]:
    return {"get_ticket": {"executor": {"mcp": {"server": "tickets", "tool": tool}}}}


async def test_json_text_is_parsed_and_text_that_is_not_json_is_invalid(
    tickets: TicketsServer, db: Database, sleep: NoSleep, tmp_path: Path
) -> None:
    as_text = load_catalog(catalog_copy(tmp_path / "a", metadata=_tool("ticket_as_text")))
    garbled = load_catalog(catalog_copy(tmp_path / "b", metadata=_tool("ticket_garbled")))
    try:
        read = await _runtime(db, as_text, sleep).call(
            request("get_ticket_v1", {"ticket_id": "T-2"})
        )
        bad = await _runtime(db, garbled, sleep).call(
            request("get_ticket_v1", {"ticket_id": "T-2"})
        )
    finally:
        await close_sessions(s.executor for s in [*as_text, *garbled])
    assert read.ok and read.payload["title"] == "VPN drops"
    assert (bad.error_code, bad.retries) == ("result_invalid", 0)
    assert bad.error_message is not None and "not JSON" in bad.error_message


async def test_a_server_that_went_away_is_retried_then_reconnected(
    db: Database, sleep: NoSleep, tmp_path: Path
) -> None:
    state, log = tmp_path / "state.json", tmp_path / "server.log"
    server = start_http_server(state, log)
    port = int(server.url.rsplit(":", 1)[1].split("/")[0])
    servers = {"tickets": {"transport": "streamable_http", "url": server.url}}
    registry = load_catalog(catalog_copy(tmp_path, servers=servers))
    runtime = _runtime(db, registry, sleep)
    try:
        assert (await runtime.call(request("get_ticket_v1", {"ticket_id": "T-1"}))).ok
        server.stop()
        gone = await runtime.call(request("get_ticket_v1", {"ticket_id": "T-1"}))
        assert (gone.error_code, gone.retries) == ("network_error", 3)
        assert "MCP server tickets" in (gone.error_message or "")
        server = start_http_server(state, log, port=port)
        back = await runtime.call(request("get_ticket_v1", {"ticket_id": "T-1"}))
        assert back.ok, back.error_message
        assert server.calls("get_ticket") == 2
    finally:
        await close_sessions(s.executor for s in registry)
        server.stop()


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield listener.getsockname()[1]


async def test_a_server_that_never_answers_times_out_at_the_skills_timeout(
    db: Database, sleep: NoSleep, tmp_path: Path, silent_port: int
) -> None:
    url = f"http://127.0.0.1:{silent_port}/mcp"
    catalog = catalog_copy(
        tmp_path,
        servers={"tickets": {"transport": "streamable_http", "url": url}},
        metadata={"get_ticket": {"timeout": 0.3}},
    )
    skill = load_package(catalog / "get_ticket")  # no tool check: nothing would answer it
    registry = SkillRegistry([skill])
    try:
        result = await _runtime(db, registry, sleep).call(
            request("get_ticket_v1", {"ticket_id": "T-1"})
        )
    finally:
        await close_sessions([skill.executor])
    assert (result.status, result.error_code) == ("timeout", "timeout")
    assert result.retries == 3


async def test_a_tool_error_is_retried_only_when_the_metadata_says_so(
    tickets: TicketsServer, db: Database, sleep: NoSleep, tmp_path: Path
) -> None:
    retry = {"error_handling": {"mcp_tool_error": {"action": "retry"}}}
    plain = load_catalog(catalog_copy(tmp_path / "a"))
    retried = load_catalog(catalog_copy(tmp_path / "b", metadata={"get_ticket": retry}))
    before = tickets.calls("get_ticket")
    try:
        once = await _runtime(db, plain, sleep).call(
            request("get_ticket_v1", {"ticket_id": "T-99"})
        )
        again = await _runtime(db, retried, sleep).call(
            request("get_ticket_v1", {"ticket_id": "T-99"})
        )
    finally:
        await close_sessions(s.executor for s in [*plain, *retried])
    assert (once.error_code, once.retries) == ("mcp_tool_error", 0)
    assert (again.error_code, again.retries) == ("mcp_tool_error", 3)
    assert tickets.calls("get_ticket") == before + 1 + 4
    assert "no ticket T-99" in (once.error_message or "")
