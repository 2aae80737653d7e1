"""Seed an empty database with the reference data, and only an empty one.

Entry points that must work on a fresh machine (the Studio graph factory,
the walkthrough notebook) call this; a database that already holds retail
data — reference, tau2 or hand-made — is never overwritten.
"""

from __future__ import annotations

import psycopg
from psycopg.rows import DictRow

from domains.retail.storage.counts import table_counts
from domains.retail.storage.generator import generate_reference
from domains.retail.storage.loader import LoadSummary


async def ensure_reference_data(
    conn: psycopg.AsyncConnection[DictRow], seed: int = 7
) -> LoadSummary | None:
    """Load the reference data when every retail table is empty; else do nothing.

    Returns the load summary, or None when data was already there.
    """
    if any((await table_counts(conn)).values()):
        return None
    return await generate_reference(conn, seed)
