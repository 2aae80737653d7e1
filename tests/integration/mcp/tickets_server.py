"""A small MCP server for the tests: tickets it keeps in a JSON state file,
with one read tool, one write tool and a count of every call it served.

    python tickets_server.py --state STATE.json --port 8123   # streamable HTTP on 127.0.0.1
    python tickets_server.py --state STATE.json --stdio        # stdio

The counts are what the tests assert on: an idempotent replay must not reach
the server, so its count of `close_ticket` calls must not move.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

SEED = {
    "T-1": {"title": "Printer jams", "status": "open"},
    "T-2": {"title": "VPN drops", "status": "open"},
    "T-3": {"title": "Old laptop", "status": "closed"},
}


class Ticket(BaseModel):
    ticket_id: str
    title: str
    status: str
    resolution: str | None = None


class State:
    """Tickets and call counts, written through to a file the tests read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        fresh = {"tickets": SEED, "calls": {}, "pids": [], "keys": []}
        data = json.loads(path.read_text()) if path.exists() else fresh
        self.tickets: dict[str, dict[str, Any]] = data["tickets"]
        self.calls: dict[str, int] = data["calls"]
        # One pid per server start: a stdio session reused across calls starts one.
        self.pids: list[int] = [*data["pids"], os.getpid()]
        # The idempotency key each write arrived with (`_meta`), for the tests.
        self.keys: list[str] = data["keys"]
        self.save()

    def count(self, tool: str) -> None:
        self.calls[tool] = self.calls.get(tool, 0) + 1
        self.save()

    def save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(
            json.dumps(
                {
                    "tickets": self.tickets,
                    "calls": self.calls,
                    "pids": self.pids,
                    "keys": self.keys,
                }
            )
        )
        os.replace(tmp, self.path)

    def ticket(self, ticket_id: str) -> Ticket:
        if ticket_id not in self.tickets:
            raise ToolError(f"no ticket {ticket_id}")
        return Ticket(ticket_id=ticket_id, **self.tickets[ticket_id])


def build(state: State) -> MCPServer:
    server = MCPServer("tickets")

    @server.tool()
    def get_ticket(ticket_id: str) -> Ticket:
        """One ticket by id."""
        state.count("get_ticket")
        return state.ticket(ticket_id)

    @server.tool()
    def close_ticket(ticket_id: str, resolution: str, ctx: Context) -> Ticket:
        """Close an open ticket with a resolution."""
        state.count("close_ticket")
        meta = ctx.request_context.meta or {}
        state.keys.append(str(meta.get("dev.rolegraph/idempotency-key")))
        ticket = state.ticket(ticket_id)
        if ticket.status != "open":
            raise ToolError(f"ticket {ticket_id} is {ticket.status}, not open")
        state.tickets[ticket_id].update(status="closed", resolution=resolution)
        state.save()
        return state.ticket(ticket_id)

    @server.tool(structured_output=False)
    def ticket_as_text(ticket_id: str) -> str:
        """The ticket as JSON text (no structured content)."""
        state.count("ticket_as_text")
        return state.ticket(ticket_id).model_dump_json()

    @server.tool(structured_output=False)
    def ticket_garbled(ticket_id: str) -> str:
        """Text that is not JSON, as a misbehaving server would answer."""
        state.count("ticket_garbled")
        return f"ticket {ticket_id} looks fine to me"

    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--state", type=Path, required=True)
    parser.add_argument("--port", type=int)
    parser.add_argument("--stdio", action="store_true")
    options = parser.parse_args()
    server = build(State(options.state))
    if options.stdio:
        server.run("stdio")
    else:
        server.run("streamable-http", host="127.0.0.1", port=options.port)


if __name__ == "__main__":
    main()
