"""The canonical form of a retail database, its JSON text and its hash.

The canonical form is tau2's model dump (every optional order field present)
serialised with sorted keys; the hash is the one the tau2 reference computes,
so a replayed task can be checked against its expected hash.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.rows import DictRow

from domains.retail.storage.models import Tau2Document
from domains.retail.storage.records import JsonDict, read_orders, read_products, read_users


def canonical_json(db: dict[str, Any]) -> str:
    """The canonical text: `json.dumps(db, sort_keys=True)`, no trailing newline."""
    return json.dumps(db, sort_keys=True)


def canonical_hash(db: dict[str, Any]) -> str:
    """The tau2 reference hash of a canonical database dict."""
    return hashlib.sha256(json.dumps(db, sort_keys=True, default=str).encode()).hexdigest()


def document_canonical(document: Tau2Document) -> JsonDict:
    """The canonical dict of a validated document (what a load stores)."""
    return document.model_dump()


async def export_canonical(conn: psycopg.AsyncConnection[DictRow]) -> JsonDict:
    """The whole retail database in canonical form, read from one snapshot."""
    if conn.info.transaction_status != TransactionStatus.IDLE:
        return await _read_all(conn)
    async with conn.transaction():
        # One snapshot for all reads, so a concurrent write cannot tear the export.
        await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        return await _read_all(conn)


async def _read_all(conn: psycopg.AsyncConnection[DictRow]) -> JsonDict:
    return {
        "products": await read_products(conn),
        "users": await read_users(conn),
        "orders": await read_orders(conn),
    }
