"""One configured MCP server as the skills that name it see it: a client
session reused by every call in this process and event loop.

Why one long-lived session per server and event loop, held by an owner task:
- a stdio server is a process; starting it per call would cost a process
  start (often a second) on every read;
- the MCP client's transport runs in an anyio task group that must be entered
  and left by one task, and that cancels the task that entered it when the
  connection breaks: a call that opened the session itself would be cancelled
  by a dropped connection instead of failing. The owner task absorbs that and
  callers see an ordinary error;
- the session belongs to the loop it was opened in (its streams do), so each
  running loop gets its own; one whose loop closed is discarded.

A broken session is dropped, and the next call (a retry, typically) opens a
fresh one. Opening is bounded by the timeout of the call that asked for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any

import httpx2
from mcp import Client, MCPError, StdioServerParameters
from mcp.types import CallToolResult, Tool

from skills.errors import UpstreamNetworkError
from skills.mcp.config import HttpServer, StdioServer
from skills.mcp.errors import McpProtocolError, one_line

_log = logging.getLogger(__name__)

# JSON-RPC code the SDK uses for "the transport closed under this request".
_CONNECTION_CLOSED = -32000


@dataclass
class _Session:
    """The session of one event loop, opened and closed by its owner task."""

    loop: asyncio.AbstractEventLoop
    ready: asyncio.Future[Client]
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    @property
    def usable(self) -> bool:
        return not self.loop.is_closed() and self.task is not None and not self.task.done()


class McpConnection:
    """Calls tools of one server named in `mcp_servers.yaml`."""

    def __init__(self, name: str, server: HttpServer | StdioServer) -> None:
        self.name = name
        self.server = server
        self._sessions: dict[int, _Session] = {}

    def __repr__(self) -> str:
        return f"McpConnection({self.name!r}, {self.server.where!r})"

    async def call_tool(
        self, tool: str, args: Mapping[str, Any], open_within: float
    ) -> CallToolResult:
        """One `tools/call`; connection trouble is `UpstreamNetworkError`."""
        client = await self._client(open_within)
        try:
            return await client.call_tool(tool, dict(args))
        except MCPError as exc:
            if exc.error.code == _CONNECTION_CLOSED:
                self._drop()
                raise self._unreachable(exc) from exc
            raise McpProtocolError(
                f"MCP server {self.name} refused {tool}: {one_line(exc.error.message)}",
                server=self.name,
                tool=tool,
            ) from exc
        except (OSError, httpx2.TransportError, EOFError) as exc:
            self._drop()
            raise self._unreachable(exc) from exc

    async def list_tools(self, open_within: float) -> list[Tool]:
        """Every tool the server offers (all pages)."""
        client = await self._client(open_within)
        tools: list[Tool] = []
        cursor: str | None = None
        while True:
            page = await client.list_tools(cursor=cursor)
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                return tools

    async def aclose(self) -> None:
        """Close this loop's session (others are closed by their loop's shutdown)."""
        session = self._sessions.pop(id(asyncio.get_running_loop()), None)
        if session is not None and session.task is not None:
            session.stop.set()
            await asyncio.gather(session.task, return_exceptions=True)

    async def _client(self, open_within: float) -> Client:
        loop = asyncio.get_running_loop()
        session = self._sessions.get(id(loop))
        if session is None or session.loop is not loop or not session.usable:
            session = _Session(loop=loop, ready=loop.create_future())
            # Marks a failure as seen even when the caller that opened it gave up.
            session.ready.add_done_callback(lambda f: f.cancelled() or f.exception())
            session.task = loop.create_task(self._own(session, open_within))
            self._sessions[id(loop)] = session
        try:
            # Shielded: a caller that times out must not cancel the opening for the others.
            return await asyncio.shield(session.ready)
        except (OSError, httpx2.TransportError, EOFError, ExceptionGroup) as exc:
            raise self._unreachable(exc) from exc

    async def _own(self, session: _Session, open_within: float) -> None:
        try:
            async with AsyncExitStack() as stack:
                async with asyncio.timeout(open_within):
                    client = await stack.enter_async_context(await self._new_client(stack))
                session.ready.set_result(client)
                await session.stop.wait()
        except TimeoutError as exc:
            _fail(session, exc if session.ready.done() else _timed_out(self, open_within))
        except Exception as exc:  # noqa: BLE001 — nobody awaits the owner; its failure goes to the callers
            _fail(session, exc)
        finally:
            if not session.ready.done():
                session.ready.cancel()

    async def _new_client(self, stack: AsyncExitStack) -> Client:
        # No response cache: every tools/call must reach the server (writes, fresh reads).
        server = self.server
        if isinstance(server, StdioServer):
            params = StdioServerParameters(
                command=server.command,
                args=list(server.args),
                env=dict(server.env) or None,
                cwd=server.cwd,
            )
            return Client(params, cache=None)
        if not server.headers:
            return Client(server.url, cache=None)
        from mcp.client.streamable_http import streamable_http_client

        http = await stack.enter_async_context(httpx2.AsyncClient(headers=server.headers))
        return Client(streamable_http_client(server.url, http_client=http), cache=None)

    def _drop(self) -> None:
        loop = asyncio.get_running_loop()
        session = self._sessions.pop(id(loop), None)
        if session is not None:
            session.stop.set()

    def _unreachable(self, exc: BaseException) -> UpstreamNetworkError:
        return UpstreamNetworkError(
            f"MCP server {self.name} ({self.server.where}) is not reachable: {_describe(exc)}",
            server=self.name,
        )


def _fail(session: _Session, exc: BaseException) -> None:
    if not session.ready.done():
        session.ready.set_exception(exc)
    else:
        _log.info("MCP session closed: %s", _describe(exc))


def _timed_out(connection: McpConnection, seconds: float) -> UpstreamNetworkError:
    return UpstreamNetworkError(
        f"MCP server {connection.name} ({connection.server.where}) did not answer"
        f" within {seconds:.2f}s",
        server=connection.name,
    )


def _describe(exc: BaseException) -> str:
    """The innermost cause of a (grouped) transport failure, on one line."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return one_line(f"{type(exc).__name__}: {exc}")
