"""Load-time half of MCP-backed skills: bind each package to its server's tool,
then ask every server once whether the tools exist and take the declared
parameters. A wrong declaration is a one-line `SkillLoadError` at start-up,
not a failed call later."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from mcp.types import Tool
from pydantic import BaseModel

from skills.contract import SkillMetadata
from skills.errors import SkillError, SkillLoadError
from skills.mcp.config import SERVERS_FILE, load_servers
from skills.mcp.connection import McpConnection
from skills.mcp.executor import LocalHalf, McpExecutor

# Start-up may start a stdio server process; a skill's call timeout is no bound for that.
MIN_CHECK_SECONDS = 15.0


def connections(catalog: Path) -> dict[str, McpConnection]:
    """One connection per server of the catalog's `mcp_servers.yaml` (none without one)."""
    return {name: McpConnection(name, s) for name, s in load_servers(catalog).items()}


def bind(
    package: str, metadata: SkillMetadata, local: Any, servers: Mapping[str, McpConnection]
) -> McpExecutor:
    """The package's executor: its local half around the declared tool."""
    assert metadata.executor is not None
    ref = metadata.executor.mcp
    if ref.server not in servers:
        known = ", ".join(sorted(servers)) or f"none: the catalog has no {SERVERS_FILE}"
        raise _error(package, f"executor.mcp.server {ref.server!r} is not configured ({known})")
    _check_local(package, local)
    if metadata.side_effect and metadata.effect != "external":
        raise _error(
            package, "an MCP tool's side effect leaves the database; declare effect: external"
        )
    return McpExecutor(metadata.skill_id, local, servers[ref.server], ref.tool)


def _check_local(package: str, local: Any) -> LocalHalf:
    output = getattr(local, "output", None)
    if not (isinstance(output, type) and issubclass(output, BaseModel)):
        raise _error(
            package, "EXECUTOR declares no result model; set EXECUTOR.output to a pydantic model"
        )
    if not callable(getattr(local, "validate_input", None)):
        raise _error(package, "EXECUTOR has no method validate_input")
    if getattr(local, "execute", None) is not None:
        raise _error(package, "EXECUTOR defines execute, but metadata names an MCP tool; keep one")
    rollback = getattr(local, "rollback", None)
    if rollback is not None and not inspect.iscoroutinefunction(rollback):
        raise _error(package, "EXECUTOR.rollback must be async")
    return local  # type: ignore[no-any-return]


def check_tools(bound: Iterable[tuple[str, McpExecutor, SkillMetadata]]) -> None:
    """Every bound tool exists on its server and takes the package's parameters."""
    by_server: dict[McpConnection, list[tuple[str, McpExecutor, SkillMetadata]]] = {}
    for entry in bound:
        by_server.setdefault(entry[1].connection, []).append(entry)
    if not by_server:
        return
    # Its own thread and loop: catalogs load synchronously, also from inside a running loop.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="mcp-check") as pool:
        pool.submit(asyncio.run, _check_all(by_server)).result()


async def _check_all(
    by_server: Mapping[McpConnection, list[tuple[str, McpExecutor, SkillMetadata]]],
) -> None:
    for connection, entries in by_server.items():
        timeout = max(MIN_CHECK_SECONDS, *(m.timeout_seconds for _, _, m in entries))
        try:
            async with asyncio.timeout(timeout):
                tools = {tool.name: tool for tool in await connection.list_tools()}
        except TimeoutError as exc:
            problem = f"MCP server {connection.name} ({connection.server.where}) did not answer within {timeout:.0f}s"
            raise _error(entries[0][0], f"{problem}; start it or fix {SERVERS_FILE}") from exc
        except SkillError as exc:
            raise _error(entries[0][0], f"{exc}; start it or fix {SERVERS_FILE}") from exc
        finally:
            await connection.aclose()
        for package, executor, metadata in entries:
            _check_tool(package, executor, metadata, tools)


def _check_tool(
    package: str, executor: McpExecutor, metadata: SkillMetadata, tools: Mapping[str, Tool]
) -> None:
    name = f"{executor.connection.name}/{executor.tool}"
    tool = tools.get(executor.tool)
    if tool is None:
        offered = ", ".join(sorted(tools)) or "no tools"
        raise _error(
            package,
            f"MCP server {executor.connection.name} has no tool {executor.tool!r} (it offers: {offered})",
        )
    inputs = dict(tool.input_schema.get("properties") or {})
    for parameter in metadata.parameters:
        if parameter not in inputs:
            raise _error(
                package,
                f"parameter {parameter!r} is not an input of MCP tool {name} (its inputs: {', '.join(inputs) or 'none'})",
            )
    for required in tool.input_schema.get("required") or ():
        if required not in metadata.parameters:
            raise _error(
                package, f"MCP tool {name} requires input {required!r}; declare it under parameters"
            )


def _error(package: str, problem: str) -> SkillLoadError:
    return SkillLoadError(f"skill package {package}: {problem}")
