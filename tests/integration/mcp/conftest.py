"""Fixtures for MCP-backed skills: a tickets server on 127.0.0.1 for the module,
the MCP test catalog loaded against it, and a skill runtime on the real database."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from checkpoints.opening import Database
from skills.context import RuntimeContext
from skills.mcp import close_sessions
from skills.registry import SkillRegistry, load_catalog
from skills.runtime import SkillRuntime
from tests.integration.mcp.tickets import (
    CATALOG,
    ROLES,
    NoSleep,
    TicketsServer,
    start_http_server,
)


@pytest.fixture(scope="module")
def tickets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TicketsServer]:
    """The tickets server, its URL exported as the catalog's mcp_servers.yaml expects."""
    folder = tmp_path_factory.mktemp("tickets")
    server = start_http_server(folder / "state.json", folder / "server.log")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("ROLEGRAPH_MCP_TICKETS_URL", server.url)
        yield server
    server.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def registry(tickets: TicketsServer) -> AsyncIterator[SkillRegistry]:
    """The MCP test catalog, loaded (and its tools checked) against the server."""
    loaded = load_catalog(CATALOG)
    yield loaded
    await close_sessions(s.executor for s in loaded)


@pytest.fixture
def sleep() -> NoSleep:
    return NoSleep()


@pytest.fixture
def runtime(db: Database, registry: SkillRegistry, sleep: NoSleep) -> SkillRuntime:
    return SkillRuntime(registry, ROLES, RuntimeContext(pool=db.pool), sleep=sleep)
