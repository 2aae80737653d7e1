"""How an MCP server's failures enter the skill runtime.

- the tool answered `isError: true` -> `McpToolError`: the dependency answered
  but the call failed; not retried unless the metadata's `error_handling`
  says `mcp_tool_error: {action: retry}`, and counted by the breaker;
- the server answered a JSON-RPC error (unknown tool, bad params, internal
  error) -> `McpProtocolError`: never retried, counted by the breaker;
- the server cannot be reached or the connection broke -> the runtime's own
  `UpstreamNetworkError`, retried with backoff like any network failure.

The message of either error is the server's text, untrusted: it stays in the
audit row and the run's state; customers read fixed wording by error code.
"""

from __future__ import annotations

from skills.errors import SkillError

MAX_MESSAGE = 300


class McpToolError(SkillError):
    """The MCP tool reported that the call failed (`isError`)."""

    code = "mcp_tool_error"


class McpProtocolError(SkillError):
    """The MCP server refused the request itself (a JSON-RPC error)."""

    code = "mcp_error"


def one_line(text: str) -> str:
    """Server text as one bounded line, fit for an error message and the audit row."""
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_MESSAGE else flat[: MAX_MESSAGE - 1] + "…"
