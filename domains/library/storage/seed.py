"""The pack's small deterministic data set (`data/library.json`) and its loader."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ValidationError

from checkpoints.errors import DataFormatError
from checkpoints.opening import Pool
from domains.library.storage import store
from domains.library.storage.models import LibraryData
from nodes.domain import Restore

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "library.json"


def read_data(path: Path = DATA_FILE) -> LibraryData:
    """The data set, validated; a missing or malformed file is a one-line `DataFormatError`."""
    try:
        return LibraryData.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except OSError as exc:
        raise DataFormatError(
            f"{path}: cannot read it ({exc.strerror}); pass a JSON data set"
        ) from None
    except json.JSONDecodeError as exc:
        raise DataFormatError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "(file)"
        raise DataFormatError(
            f"{path}: {where}: {error['msg']}; see {DATA_FILE.name} in the pack for the shape"
        ) from None


async def load(conn: store.Conn, path: Path = DATA_FILE) -> dict[str, int]:
    """Replace the tables' rows with the data set in one transaction; rows per table."""
    data = read_data(path)
    async with conn.transaction():
        await store.replace_all(conn, data)
    return await store.counts(conn)


class LibrarySeed:
    """The data set for entry points that must work on a fresh database (Studio)."""

    empty_hint = (
        "load the library's members and books with `ROLEGRAPH_DOMAIN=library rolegraph data load`"
    )

    async def has_customers(self, pool: Pool) -> bool:
        async with pool.connection() as conn:
            return (await store.counts(conn))["members"] > 0

    async def seed_if_empty(self, pool: Pool) -> str | None:
        """Load the data set when no member is loaded; what was loaded, else None."""
        if await self.has_customers(pool):
            return None
        async with pool.connection() as conn:
            loaded = await load(conn)
        return "loaded " + ", ".join(f"{n} {table}" for table, n in loaded.items())

    async def restore_point(self, pool: Pool) -> Restore:
        """The tables as they are now; the result puts them back and names the rows
        (members, loans, holds, ...) that had changed."""
        async with pool.connection() as conn:
            initial = await store.read_all(conn)

        async def restore() -> tuple[str, ...]:
            async with pool.connection() as conn, conn.transaction():
                changed = _changed_ids(initial, await store.read_all(conn))
                if changed:
                    await store.replace_all(conn, initial)
            return changed

        return restore


def _changed_ids(initial: LibraryData, current: LibraryData) -> tuple[str, ...]:
    """Ids of the rows that differ, were added or went, by table."""
    ids: list[str] = []
    for table in LibraryData.model_fields:
        before = {_row_id(row): row for row in getattr(initial, table)}
        after = {_row_id(row): row for row in getattr(current, table)}
        ids += sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    return tuple(ids)


def _row_id(row: BaseModel) -> str:
    return str(next(iter(row.model_dump().values())))
