"""The operator's view of customers' long-term memory: list and forget.

The CLI (`rolegraph memory list|forget`) is a thin layer over these; the
agent itself never deletes a fact (`nodes.memory`).
"""

from __future__ import annotations

import re

from checkpoints.errors import InvalidArgument
from checkpoints.opening import Database
from nodes.domain import Domain
from nodes.inputs import clean_user_id, unknown_user
from nodes.memory.facts import Remembered
from nodes.memory.store import entries, forget

_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")


async def list_memory(db: Database, domain: Domain, user_id: str) -> list[Remembered]:
    """Every stored fact of customer `user_id`, contradicted ones too, newest first."""
    user_id = await _customer(db, domain, user_id)
    return await entries(db.store, user_id)


async def forget_memory(db: Database, domain: Domain, user_id: str, key: str | None = None) -> int:
    """Erase customer `user_id`'s memory (of fact `key` only, when given); how many went."""
    user_id = await _customer(db, domain, user_id)
    if key is not None and not _KEY.fullmatch(key):
        raise InvalidArgument(
            f"--key {key[:40]!r} is not a fact key; use one `rolegraph memory list` shows"
        )
    return await forget(db.store, db.pool, user_id, key)


async def _customer(db: Database, domain: Domain, user_id: str) -> str:
    user_id = clean_user_id(user_id)
    if not await domain.records.customer_exists(db.pool, user_id):
        raise await unknown_user(domain, db.pool, user_id)
    return user_id
