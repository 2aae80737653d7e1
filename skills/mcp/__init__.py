"""Skills whose executor is a tool of an MCP server (docs/mcp-skills.md).

`McpSkill` is what an MCP-backed package's `executor.py` declares;
`close_sessions` closes the sessions a registry holds in the running loop.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skills.mcp.errors import McpProtocolError, McpToolError
    from skills.mcp.executor import McpExecutor, McpSkill

__all__ = ["McpExecutor", "McpProtocolError", "McpSkill", "McpToolError", "close_sessions"]


def __getattr__(name: str) -> Any:
    # The MCP SDK costs a second to import: only a catalog that uses it pays.
    if name in ("McpExecutor", "McpSkill"):
        from skills.mcp import executor

        return getattr(executor, name)
    if name in ("McpProtocolError", "McpToolError"):
        from skills.mcp import errors

        return getattr(errors, name)
    raise AttributeError(name)


async def close_sessions(executors: Iterable[object]) -> None:
    """Close this loop's MCP sessions of the given executors (e.g. a registry's)."""
    from skills.mcp.executor import McpExecutor

    seen = {e.connection for e in executors if isinstance(e, McpExecutor)}
    for connection in seen:
        await connection.aclose()
