"""SQL has one home: `checkpoints/` (harness tables) and each domain's `storage/`."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("graphs", "nodes", "skills", "rolegraph_cli", "domains")
STATEMENT = re.compile(
    r"[\"'][^\"'\n]*\b(SELECT .+ FROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM|TRUNCATE|"
    r"CREATE DATABASE|DROP DATABASE|pg_\w*advisory_\w+)\b"
)


# Moved by the other issue-8 branches (arbitrate's audit write, intake's ownership reads);
# the lead empties this set when they are merged.
def _outside_storage() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if re.match(r"domains/[^/]+/storage/", rel):
                continue
            hits = [m.group(0) for m in STATEMENT.finditer(path.read_text(encoding="utf-8"))]
            if hits:
                found[rel] = hits
    return found


def test_no_sql_outside_the_storage_packages() -> None:
    assert _outside_storage() == {}


def test_the_scan_finds_sql_where_it_lives() -> None:
    text = (ROOT / "checkpoints" / "threads.py").read_text(encoding="utf-8")
    assert STATEMENT.search(text)
