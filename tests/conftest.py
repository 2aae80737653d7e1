"""Shared fixtures: a real PostgreSQL (embedded, or DATABASE_URL) with a fresh
database per test module, and a guard that keeps real model calls out."""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psycopg
import pytest
import pytest_asyncio

from checkpoints.database import DatabaseTarget, resolve_database, with_database
from checkpoints.opening import Database, open_database
from checkpoints.settings import DatabaseSettings
from nodes.domain import load_domain
from tests.fakes.chat import check_scripts_consumed

REPO_ROOT = Path(__file__).resolve().parent.parent
TAU2_DIR = REPO_ROOT.parent / "shared" / "tau2"


@pytest.fixture(autouse=True, scope="session")
def _no_real_models() -> None:
    # Real model calls fail by default: an endpoint nobody listens on.
    for name in ("ROLEGRAPH_MODEL_SMALL", "ROLEGRAPH_MODEL_LARGE"):
        os.environ.pop(name, None)
    os.environ["OPENAI_API_KEY"] = "test-key-not-real"
    os.environ["OPENAI_BASE_URL"] = "http://127.0.0.1:9/v1"


@pytest.fixture(autouse=True)
def _every_script_consumed() -> Iterator[None]:
    # A scripted chat model fails the test that left part of its script unused.
    yield from check_scripts_consumed()


@pytest.fixture(scope="session")
def server() -> DatabaseTarget:
    """The server under test; tests never touch its default database."""
    return resolve_database(DatabaseSettings.from_env())


def _fresh_database(server: DatabaseTarget, label: str) -> tuple[str, DatabaseTarget]:
    name = "rgt_" + re.sub(r"\W", "_", label)[-40:].lower() + "_" + uuid.uuid4().hex[:8]
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = with_database(server.url, name)
    return name, DatabaseTarget(url=url, kind=server.kind, location=f"{server.location}/{name}")


def _drop_database(server: DatabaseTarget, name: str) -> None:
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def fresh_target(server: DatabaseTarget, request: pytest.FixtureRequest) -> DatabaseTarget:
    """A new, empty database for this test module, dropped afterwards."""
    name, target = _fresh_database(server, request.module.__name__)
    request.addfinalizer(lambda: _drop_database(server, name))
    return target


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def db(fresh_target: DatabaseTarget) -> AsyncIterator[Database]:
    """The module's database, opened and migrated."""
    async with open_database(
        target=fresh_target, migrations=(load_domain().migrations,)
    ) as database:
        yield database


@pytest.fixture(scope="module")
def db_env(fresh_target: DatabaseTarget) -> dict[str, str]:
    """Environment for subprocesses that must use the module's database."""
    return {**os.environ, "DATABASE_URL": fresh_target.url}


@pytest.fixture(scope="session")
def tau2_dir() -> Path:
    if not (TAU2_DIR / "db.json").exists():
        pytest.skip("../shared/tau2 is not present")
    return TAU2_DIR
