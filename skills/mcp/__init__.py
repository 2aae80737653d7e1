"""Skills whose executor is a tool of an MCP server (docs/mcp-skills.md).

`McpSkill` is what an MCP-backed package's `executor.py` declares;
`close_sessions` closes the sessions a registry holds in the running loop.
"""

from __future__ import annotations

from collections.abc import Iterable

from skills.mcp.errors import McpProtocolError, McpToolError
from skills.mcp.executor import McpExecutor, McpSkill

__all__ = ["McpExecutor", "McpProtocolError", "McpSkill", "McpToolError", "close_sessions"]


async def close_sessions(executors: Iterable[object]) -> None:
    """Close this loop's MCP sessions of the given executors (e.g. a registry's)."""
    seen = {e.connection for e in executors if isinstance(e, McpExecutor)}
    for connection in seen:
        await connection.aclose()
