"""A load either replaces everything or changes nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.rows import DictRow

from checkpoints.errors import DataFormatError, LoadInProgress
from checkpoints.opening import Database
from domains.retail.storage import (
    canonical_hash,
    export_canonical,
    load_tau2,
    parse_document,
    table_counts,
)
from domains.retail.storage import loader as loader_module

Conn = psycopg.AsyncConnection[DictRow]


async def _state(conn: Conn) -> tuple[str, dict[str, int]]:
    return canonical_hash(await export_canonical(conn)), await table_counts(conn)


def _write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


async def test_format_errors_leave_the_database_unchanged(
    conn: Conn, mini_path: Path, mini_doc: dict[str, Any], tmp_path: Path
) -> None:
    await load_tau2(conn, mini_path)
    before = await _state(conn)
    assert before[1]["orders"] == 3
    del mini_doc["orders"]["#W0000001"]["status"]
    bad_files = [
        _write(tmp_path, "malformed.json", '{"products": {'),
        _write(tmp_path, "shape.json", {"products": [], "users": {}, "orders": {}}),
        _write(tmp_path, "missing.json", mini_doc),
        tmp_path / "absent.json",
        tmp_path,  # a directory cannot be read as a file
    ]
    for path in bad_files:
        with pytest.raises(DataFormatError) as caught:
            await load_tau2(conn, path)
        assert "\n" not in str(caught.value)
        assert await _state(conn) == before


async def test_constraint_violation_halfway_keeps_previous_data(
    conn: Conn, mini_path: Path, mini_doc: dict[str, Any], tmp_path: Path
) -> None:
    await load_tau2(conn, mini_path)
    before = await _state(conn)
    # Products and users are copied before orders, so this fails after writing them.
    mini_doc["products"]["1000000001"]["variants"]["2000000001"]["price"] = 1.5
    mini_doc["orders"]["#W0000003"]["user_id"] = "ghost_0000"
    mini_doc["users"]["otto_szabo_5678"]["orders"] = []
    parse_document(mini_doc, source="valid.json")  # the file itself is well-formed
    with pytest.raises(DataFormatError) as caught:
        await load_tau2(conn, _write(tmp_path, "ghost.json", mini_doc))
    message = str(caught.value)
    assert "foreign key" in message and "ghost_0000" in message and "\n" not in message
    assert await _state(conn) == before


async def test_injected_failure_rolls_back_everything(
    conn: Conn,
    mini_path: Path,
    mini_doc: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await load_tau2(conn, mini_path)
    before = await _state(conn)

    async def explode(*args: object, **kwargs: object) -> int:
        raise RuntimeError("injected failure after all rows were copied")

    monkeypatch.setattr(loader_module, "synthesize_tracking", explode)
    mini_doc["users"]["otto_szabo_5678"]["email"] = "changed@example.org"
    with pytest.raises(RuntimeError, match="injected"):
        await load_tau2(conn, _write(tmp_path, "other.json", mini_doc))
    assert await _state(conn) == before


async def test_a_second_concurrent_load_is_refused(
    db: Database, conn: Conn, mini_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inside, release = asyncio.Event(), asyncio.Event()
    real = loader_module.synthesize_tracking

    async def held(connection: Conn, **kwargs: Any) -> int:
        inside.set()  # the first load now holds the lock inside its transaction
        await release.wait()
        return await real(connection, **kwargs)

    monkeypatch.setattr(loader_module, "synthesize_tracking", held)
    first = asyncio.create_task(load_tau2(conn, mini_path))
    await asyncio.wait_for(inside.wait(), 60)
    try:
        async with db.pool.connection() as other:
            with pytest.raises(LoadInProgress) as caught:
                await load_tau2(other, mini_path)
    finally:
        release.set()
    assert str(caught.value) == "another load is running; wait for it to finish and retry"
    assert (await first).orders == 3
    monkeypatch.setattr(loader_module, "synthesize_tracking", real)
    assert (await load_tau2(conn, mini_path)).orders == 3  # the lock went with the transaction
