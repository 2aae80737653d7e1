"""What the served-graph tests share: a `langgraph dev` over the module's database,
bearer tokens for its customers and operators, and SDK clients that send them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langgraph_sdk import get_client
from langgraph_sdk.client import LangGraphClient

from checkpoints.opening import Database
from checkpoints.tokens import Conn, TokenKind, issue_token
from domains.retail.storage import fetch_user
from tests.integration.server.dev_server import DevServer, dev_server, langgraph_cli


@pytest.fixture(scope="module")
def served(
    retail_db: Database, db_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DevServer]:
    """A `langgraph dev` server over the module's seeded database."""
    cli = langgraph_cli()
    if cli is None:
        pytest.skip("the langgraph CLI is not installed: pip install 'langgraph-cli[inmem]'")
    with dev_server(cli, db_env, tmp_path_factory.mktemp("langgraph_dev")) as server:
        yield server


async def token_for(db: Database, kind: TokenKind, subject: str) -> str:
    """A fresh bearer token for a customer (who must exist) or an operator."""
    async with db.pool.connection() as conn:
        return (await issue_token(conn, kind, subject, customer_exists=_exists)).secret


async def _exists(conn: Conn, user_id: str) -> bool:
    return await fetch_user(conn, user_id) is not None


def client_for(server: DevServer, token: str) -> LangGraphClient:
    """An SDK client that authenticates with `token`."""
    return get_client(url=server.url, headers={"Authorization": f"Bearer {token}"})
