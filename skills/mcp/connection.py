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
fresh one. Opening has no clock of its own: it belongs to the call that asked
for it, so that call's timeout (the skill's) bounds it, and a call that gives
up abandons the opening rather than leave it hanging.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any, cast

import httpx2
from mcp import Client, MCPError, StdioServerParameters
from mcp.types import CallToolResult, RequestParamsMeta, Tool

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
    opener: asyncio.Task[Any] | None = None

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
        self, tool: str, args: Mapping[str, Any], meta: Mapping[str, str] | None = None
    ) -> CallToolResult:
        """One `tools/call` (with `_meta`); connection trouble is `UpstreamNetworkError`."""
        client = await self._client()
        try:
            sent = cast(RequestParamsMeta, dict(meta)) if meta else None
            return await client.call_tool(tool, dict(args), meta=sent)
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

    async def list_tools(self) -> list[Tool]:
        """Every tool the server offers (all pages)."""
        client = await self._client()
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

    async def _client(self) -> Client:
        session = self._session()
        try:
            # Shielded: only the opener's giving up may abandon the opening.
            return await asyncio.shield(session.ready)
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if me is not None and me.cancelling():
                if session.opener is me:
                    self._abandon(session)
                raise
            raise self._unreachable(ConnectionAbortedError("opening abandoned")) from None
        except (OSError, httpx2.TransportError, EOFError, ExceptionGroup, MCPError) as exc:
            raise self._unreachable(exc) from exc

    def _session(self) -> _Session:
        """This loop's session, opened (by a new owner task) unless it is usable."""
        loop = asyncio.get_running_loop()
        session = self._sessions.get(id(loop))
        if session is not None and session.loop is loop and session.usable:
            return session
        session = _Session(loop=loop, ready=loop.create_future())
        # Marks a failure as seen even when the caller that opened it gave up.
        session.ready.add_done_callback(lambda f: f.cancelled() or f.exception())
        session.task = loop.create_task(self._own(session))
        session.opener = asyncio.current_task()
        self._sessions[id(loop)] = session
        return session

    def _abandon(self, session: _Session) -> None:
        """Stop an opening its caller gave up on; the next call opens afresh."""
        if session.task is not None:
            session.task.cancel()
        if self._sessions.get(id(session.loop)) is session:
            del self._sessions[id(session.loop)]

    async def _own(self, session: _Session) -> None:
        try:
            async with AsyncExitStack() as stack:
                client = await stack.enter_async_context(await self._new_client(stack))
                session.ready.set_result(client)
                await session.stop.wait()
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


def _describe(exc: BaseException) -> str:
    """The innermost cause of a (grouped) transport failure, on one line."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return one_line(f"{type(exc).__name__}: {exc}")
