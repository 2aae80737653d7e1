"""`rolegraph data ...` end to end, in subprocesses against the module's database."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import psycopg
from psycopg.rows import DictRow

from domains.retail.storage import canonical_hash, canonical_json, export_canonical, parse_document
from domains.retail.storage.canonical import document_canonical
from domains.retail.storage.generator import reference_document

TAU2_HASH = "b25c9cb211f5efcaee5dd646054a73c4a9f43f4f5acc32c10713cd9f9ac20e9c"
Conn = psycopg.AsyncConnection[DictRow]


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rolegraph_cli", "data", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _mini_canonical(mini_path: Path) -> dict[str, object]:
    data = json.loads(mini_path.read_text(encoding="utf-8"))
    return document_canonical(parse_document(data, source=str(mini_path)))


async def _hash(conn: Conn) -> str:
    return canonical_hash(await export_canonical(conn))


async def test_load_hash_export(
    conn: Conn, db_env: dict[str, str], mini_path: Path, tmp_path: Path
) -> None:
    loaded = _run(db_env, "load", str(mini_path))
    assert loaded.returncode == 0, loaded.stderr
    assert "2 users, 3 orders" in loaded.stdout
    expected = _mini_canonical(mini_path)
    assert await _hash(conn) == canonical_hash(expected)
    hashed = _run(db_env, "hash")
    assert hashed.returncode == 0 and hashed.stdout == canonical_hash(expected) + "\n"
    target = tmp_path / "out" / "export.json"
    target.parent.mkdir()
    exported = _run(db_env, "export", str(target))
    assert exported.returncode == 0, exported.stderr
    assert target.read_text(encoding="utf-8") == canonical_json(expected)
    assert [p.name for p in target.parent.iterdir()] == ["export.json"]  # no temp file left


async def test_bad_input_exits_2_with_one_line(
    conn: Conn, db_env: dict[str, str], tmp_path: Path
) -> None:
    before = await _hash(conn)
    bad = tmp_path / "db.json"
    bad.write_text('{"products": {}, "users": {}, "orders": [}', encoding="utf-8")
    result = _run(db_env, "load", str(bad))
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "not valid JSON at line 1 column" in lines[0]
    assert await _hash(conn) == before
    unwritable = _run(db_env, "export", str(tmp_path / "missing-dir" / "x.json"))
    assert unwritable.returncode == 2 and len(unwritable.stderr.strip().splitlines()) == 1


async def test_generate_is_deterministic(conn: Conn, db_env: dict[str, str]) -> None:
    generated = _run(db_env, "generate", "--seed", "5")
    assert generated.returncode == 0, generated.stderr
    expected = canonical_hash(document_canonical(reference_document(5)))
    assert expected in generated.stdout
    assert await _hash(conn) == expected


async def test_tau2_file_round_trip(db_env: dict[str, str], tau2_dir: Path, tmp_path: Path) -> None:
    loaded = _run(db_env, "load", str(tau2_dir / "db.json"))
    assert loaded.returncode == 0 and TAU2_HASH in loaded.stdout
    target = tmp_path / "db.canonical.json"
    assert _run(db_env, "export", str(target)).returncode == 0
    assert target.read_bytes() == (tau2_dir / "db.canonical.json").read_bytes()
