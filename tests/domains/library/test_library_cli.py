"""The library's CLI group, chosen by `ROLEGRAPH_DOMAIN=library`, in a subprocess."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.opening import Database
from domains.library.storage import store
from tests.cli import run_cli


async def test_data_load_and_counts_run_in_another_process(
    library_db: Database, library_env: dict[str, str]
) -> None:
    async with library_db.pool.connection() as conn, conn.transaction():
        await conn.execute("DELETE FROM holds")
    counted = run_cli(library_env, "data", "counts")
    assert counted.returncode == 0, counted.stderr
    assert counted.stdout.strip() == "0 holds, 8 loans, 18 copies, 15 books, 5 members"
    loaded = run_cli(library_env, "data", "load")
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.strip() == "loaded 3 holds, 8 loans, 18 copies, 15 books, 5 members"
    async with library_db.pool.connection() as conn:
        assert (await store.counts(conn))["holds"] == 3


@pytest.mark.parametrize(
    ("content", "words"),
    [("{not json", "not JSON"), ('{"members": [{"member_id": "1001"}]}', "members.0.member_id")],
)
async def test_a_malformed_data_set_is_one_line_and_exit_2(
    library_env: dict[str, str], tmp_path: Path, content: str, words: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    result = run_cli(library_env, "data", "load", str(bad))
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("rolegraph: error:") and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
