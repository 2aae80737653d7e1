"""Fixtures for the retail data layer on a real database."""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import pytest_asyncio
from psycopg.rows import DictRow

from checkpoints.opening import Database

MINI_PATH = Path(__file__).resolve().parents[2] / "fixtures" / "retail_mini.json"
_MINI: dict[str, Any] = json.loads(MINI_PATH.read_text(encoding="utf-8"))

Conn = psycopg.AsyncConnection[DictRow]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def conn(db: Database) -> AsyncIterator[Conn]:
    """One pooled connection for the module (autocommit, dict rows)."""
    async with db.pool.connection() as connection:
        yield connection


@pytest.fixture
def mini_doc() -> dict[str, Any]:
    """A fresh copy of the project's own mini tau2 document."""
    return copy.deepcopy(_MINI)


@pytest.fixture
def mini_path() -> Path:
    return MINI_PATH
