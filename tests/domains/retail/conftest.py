"""Fixtures for retail-domain tests: the module's database loaded with tau2 data."""

from __future__ import annotations

from pathlib import Path

import pytest_asyncio

from checkpoints.opening import Database
from domains.retail.storage.loader import load_tau2
from tests.support_fixtures import retail_db, support

__all__ = ["retail_db", "support", "tau2_db"]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def tau2_db(db: Database, tau2_dir: Path) -> Database:
    """The module's database with the published tau2 retail data loaded once."""
    async with db.pool.connection() as conn:
        await load_tau2(conn, tau2_dir / "db.json")
    return db
