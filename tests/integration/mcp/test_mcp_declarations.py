"""A wrong MCP declaration fails the catalog load with one line saying what and how to fix it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skills.errors import SkillLoadError
from skills.registry import load_catalog
from tests.integration.mcp.tickets import TicketsServer, catalog_copy


def _load_error(catalog: Path) -> str:
    with pytest.raises(SkillLoadError) as failed:
        load_catalog(catalog)
    message = str(failed.value)
    assert "\n" not in message
    return message


def _mcp(server: str, tool: str) -> dict[str, Any]:
    return {"executor": {"mcp": {"server": server, "tool": tool}}}


def test_an_unknown_server_is_named_with_the_configured_ones(
    tickets: TicketsServer, tmp_path: Path
) -> None:
    catalog = catalog_copy(tmp_path, metadata={"get_ticket": _mcp("tix", "get_ticket")})
    assert _load_error(catalog) == (
        "skill package get_ticket: executor.mcp.server 'tix' is not configured (tickets)"
    )


def test_a_tool_the_server_does_not_offer_is_named_with_those_it_does(
    tickets: TicketsServer, tmp_path: Path
) -> None:
    catalog = catalog_copy(tmp_path, metadata={"close_ticket": _mcp("tickets", "close_tiket")})
    message = _load_error(catalog)
    assert message.startswith(
        "skill package close_ticket: MCP server tickets has no tool 'close_tiket'"
    )
    assert "close_ticket, get_ticket" in message


def test_parameters_must_match_the_tools_inputs(tickets: TicketsServer, tmp_path: Path) -> None:
    extra = {"parameters": {"ticket_id": {"type": "string"}, "queue": {"type": "string"}}}
    catalog = catalog_copy(tmp_path, metadata={"get_ticket": extra})
    assert "parameter 'queue' is not an input of MCP tool tickets/get_ticket" in _load_error(
        catalog
    )
    missing = {"parameters": {"ticket_id": {"type": "string"}}}
    catalog = catalog_copy(tmp_path / "2", metadata={"close_ticket": missing})
    assert "requires input 'resolution'; declare it under parameters" in _load_error(catalog)


def test_a_write_must_declare_its_effect_external(tickets: TicketsServer, tmp_path: Path) -> None:
    catalog = catalog_copy(tmp_path, metadata={"close_ticket": {"effect": "transactional"}})
    assert _load_error(catalog).endswith("leaves the database; declare effect: external")


def test_an_unset_variable_in_the_server_config_is_named(tmp_path: Path) -> None:
    servers = {"tickets": {"transport": "streamable_http", "url": "${ROLEGRAPH_MCP_UNSET_1}"}}
    catalog = catalog_copy(tmp_path, servers=servers)
    assert _load_error(catalog) == (
        "mcp_servers.yaml: servers.tickets.url uses ${ROLEGRAPH_MCP_UNSET_1}, which is not set;"
        " export it"
    )


def test_an_unreachable_server_fails_the_load(tmp_path: Path) -> None:
    from tests.smtp_servers import free_port

    url = f"http://127.0.0.1:{free_port()}/mcp"
    catalog = catalog_copy(
        tmp_path, servers={"tickets": {"transport": "streamable_http", "url": url}}
    )
    message = _load_error(catalog)
    assert f"MCP server tickets ({url}) is not reachable" in message
    assert message.endswith("start it or fix mcp_servers.yaml")


def test_an_executor_that_also_executes_is_refused(tickets: TicketsServer, tmp_path: Path) -> None:
    catalog = catalog_copy(tmp_path)
    executor = catalog / "get_ticket" / "executor.py"
    executor.write_text(
        executor.read_text()
        + "\n\nclass _Both(McpSkill):\n    async def execute(self, args, ctx):\n        return {}\n"
        + "\n\nEXECUTOR = _Both(output=Ticket, arguments=GetTicket)\n"
    )
    assert "EXECUTOR defines execute, but metadata names an MCP tool" in _load_error(catalog)
