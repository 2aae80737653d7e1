"""A customer's memory in LangGraph's store: namespace ("memory", user_id).

Every (key, value) is one item: a value that contradicts an older one of the
same key is stored beside it, a repeated one is merged into its item (count,
last seen). The store has no compare-and-set, so writes are read-modify-write
under the customer's lock (`checkpoints.customer_lock`) and bump the item's
version: concurrent writers never lose an update. Only an operator's `forget`
deletes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime
from typing import TypedDict

from langgraph.store.base import BaseStore

from checkpoints.customer_lock import customer_lock
from checkpoints.opening import Pool
from nodes.memory.facts import Fact, Remembered

SCOPE = "memory"
PAGE = 100


class _Entry(TypedDict):
    """The stored JSON value of one item."""

    key: str
    value: str
    first_seen: str
    last_seen: str
    count: int
    version: int


def namespace(user_id: str) -> tuple[str, str]:
    """The store namespace of one customer's memory."""
    return (SCOPE, user_id)


def item_key(fact_key: str, value: str) -> str:
    """One item per (key, value): contradicting values live side by side."""
    return f"{fact_key}:{hashlib.sha256(value.encode()).hexdigest()[:16]}"


async def remember(
    store: BaseStore, pool: Pool, user_id: str, facts: Iterable[Fact], now: datetime
) -> list[Remembered]:
    """Store `facts` for `user_id` (merging duplicates); the entries as written."""
    written = []
    async with customer_lock(pool, SCOPE, user_id):
        for fact in facts:
            written.append(await _upsert(store, user_id, fact, now))
    return written


async def _upsert(store: BaseStore, user_id: str, fact: Fact, now: datetime) -> Remembered:
    key = item_key(fact.key, fact.value)
    held = await store.aget(namespace(user_id), key)
    old: _Entry | None = held.value if held else None  # type: ignore[assignment]
    stamp = now.isoformat()
    entry: _Entry = {
        "key": fact.key,
        "value": fact.value,
        "first_seen": old["first_seen"] if old else stamp,
        "last_seen": max(stamp, old["last_seen"]) if old else stamp,
        "count": (old["count"] if old else 0) + 1,
        "version": (old["version"] if old else 0) + 1,
    }
    await store.aput(namespace(user_id), key, dict(entry), index=False)
    return _remembered(entry)


async def entries(store: BaseStore, user_id: str) -> list[Remembered]:
    """Every stored entry of `user_id`, newest first (other customers' never)."""
    found: list[Remembered] = []
    offset = 0
    while True:
        page = await store.asearch(namespace(user_id), limit=PAGE, offset=offset)
        found.extend(_remembered(item.value) for item in page)  # type: ignore[arg-type]
        if len(page) < PAGE:
            break
        offset += PAGE
    return sorted(found, key=lambda e: (e.last_seen, e.key), reverse=True)


async def forget(store: BaseStore, pool: Pool, user_id: str, key: str | None = None) -> int:
    """Delete `user_id`'s entries (of `key` only, when given); how many went."""
    async with customer_lock(pool, SCOPE, user_id):
        doomed = [e for e in await entries(store, user_id) if key is None or e.key == key]
        for entry in doomed:
            await store.adelete(namespace(user_id), item_key(entry.key, entry.value))
    return len(doomed)


def _remembered(entry: _Entry) -> Remembered:
    return Remembered(
        key=entry["key"],
        value=entry["value"],
        first_seen=datetime.fromisoformat(entry["first_seen"]),
        last_seen=datetime.fromisoformat(entry["last_seen"]),
        count=int(entry["count"]),
        version=int(entry["version"]),
    )
