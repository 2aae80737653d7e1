"""Replace all retail data with a tau2 document, atomically.

The file is validated completely before the database is touched; the
replacement runs in one transaction, so a failure at any point leaves the
previous data exactly as it was. An advisory lock turns a second concurrent
load into a clear error instead of a wait or a tangle.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import psycopg
from psycopg.rows import DictRow

from checkpoints import outbox
from checkpoints.errors import DataFormatError, LoadInProgress
from domains.retail.storage.canonical import canonical_hash, document_canonical
from domains.retail.storage.models import Tau2Document
from domains.retail.storage.rows import document_rows
from domains.retail.storage.sqlio import ROW_ERRORS, copy_rows, describe_db_error
from domains.retail.storage.tables import DOCUMENT_TABLES, RETAIL_TABLES
from domains.retail.storage.tau2_format import read_tau2_file
from domains.retail.storage.tracking import TRACKING_AS_OF
from domains.retail.storage.tracking_store import synthesize_tracking

RETAIL_LOCK_KEY = 0x72657461  # "reta"


@dataclass(frozen=True)
class LoadSummary:
    """What a load stored, and the canonical hash of the stored database."""

    source: str
    products: int
    variants: int
    users: int
    orders: int
    shipments: int
    hash: str

    def describe(self) -> str:
        """One line for the CLI."""
        return (
            f"loaded {self.source}: {self.products} products ({self.variants} variants), "
            f"{self.users} users, {self.orders} orders, {self.shipments} shipments; "
            f"hash {self.hash}"
        )


async def load_tau2(
    conn: psycopg.AsyncConnection[DictRow],
    path: Path | str,
    *,
    as_of: datetime = TRACKING_AS_OF,
) -> LoadSummary:
    """Validate a tau2 retail file, then replace all retail data with it."""
    document = read_tau2_file(Path(path))
    return await load_document(conn, document, source=str(path), as_of=as_of)


async def load_document(
    conn: psycopg.AsyncConnection[DictRow],
    document: Tau2Document,
    *,
    source: str,
    as_of: datetime = TRACKING_AS_OF,
) -> LoadSummary:
    """Replace all retail data with a validated document in one transaction."""
    rows = document_rows(document)
    try:
        async with conn.transaction():
            await _lock(conn)
            await conn.execute(f"TRUNCATE {', '.join(RETAIL_TABLES)}")
            # Outbox rows point at users, so they go with them.
            await outbox.clear(conn)
            for table in DOCUMENT_TABLES:
                await copy_rows(conn, table, rows[table])
            shipments = await synthesize_tracking(conn, as_of=as_of)
    except ROW_ERRORS as exc:
        raise DataFormatError(
            f"{source}: {describe_db_error(exc)}; fix the file and load it again"
        ) from None
    return LoadSummary(
        source=source,
        products=len(rows["products"]),
        variants=len(rows["product_variants"]),
        users=len(rows["users"]),
        orders=len(rows["orders"]),
        shipments=shipments,
        hash=canonical_hash(document_canonical(document)),
    )


async def _lock(conn: psycopg.AsyncConnection[DictRow]) -> None:
    cur = await conn.execute("SELECT pg_try_advisory_xact_lock(%s) AS locked", (RETAIL_LOCK_KEY,))
    row = await cur.fetchone()
    if row is None or not row["locked"]:
        raise LoadInProgress("another load is running; wait for it to finish and retry")
