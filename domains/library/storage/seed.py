"""The pack's small deterministic data set (`data/library.json`) and its loader."""

from __future__ import annotations

import json
from pathlib import Path

from domains.library.storage import store
from domains.library.storage.models import LibraryData

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "library.json"


def read_data(path: Path = DATA_FILE) -> LibraryData:
    """The data set, validated (a malformed file is a `ValidationError` naming the field)."""
    return LibraryData.model_validate(json.loads(path.read_text(encoding="utf-8")))


async def load(conn: store.Conn, path: Path = DATA_FILE) -> dict[str, int]:
    """Replace the tables' rows with the data set in one transaction; rows per table."""
    data = read_data(path)
    async with conn.transaction():
        await store.replace_all(conn, data)
    return await store.counts(conn)
