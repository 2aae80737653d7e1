"""`rolegraph data load|export|hash|generate`: the retail data set."""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
from pathlib import Path

from checkpoints.errors import DataFormatError
from domains.retail.storage import (
    canonical_hash,
    canonical_json,
    export_canonical,
    generate_reference,
    load_tau2,
)
from rolegraph_cli.common import open_project_database, run_command


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    data = subparsers.add_parser("data")
    commands = data.add_subparsers(dest="data_command", required=True, metavar="SUBCOMMAND")
    load = commands.add_parser("load", help="replace all retail data with a tau2 JSON file")
    load.add_argument("path", type=Path, help="a tau2 retail db.json")
    load.set_defaults(handler=lambda args: run_command(lambda: _load(args.path)))
    export = commands.add_parser("export", help="write the retail data as canonical JSON")
    export.add_argument("path", type=Path, help="where to write the JSON file")
    export.set_defaults(handler=lambda args: run_command(lambda: _export(args.path)))
    hash_ = commands.add_parser("hash", help="print the tau2 hash of the retail data")
    hash_.set_defaults(handler=lambda args: run_command(_hash))
    generate = commands.add_parser("generate", help="replace all retail data with reference data")
    generate.add_argument("--seed", type=int, default=7, help="generator seed (default 7)")
    generate.set_defaults(handler=lambda args: run_command(lambda: _generate(args.seed)))


async def _load(path: Path) -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        summary = await load_tau2(conn, path)
    print(summary.describe())
    return 0


async def _export(path: Path) -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        exported = await export_canonical(conn)
    write_atomically(path, canonical_json(exported))
    print(f"exported retail data to {path}; hash {canonical_hash(exported)}")
    return 0


async def _hash() -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        exported = await export_canonical(conn)
    print(canonical_hash(exported))
    return 0


async def _generate(seed: int) -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        summary = await generate_reference(conn, seed)
    print(summary.describe())
    return 0


def write_atomically(path: Path, text: str) -> None:
    """Write via a temp file in the same folder and rename: readers never see half a file."""
    folder = path.parent
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise DataFormatError(
            f"{path}: cannot write there ({exc.strerror}); choose a writable path"
        ) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temp, 0o644)  # mkstemp's 0600 would make the export private
        os.replace(temp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise DataFormatError(
            f"{path}: cannot write there ({exc.strerror}); choose a writable path"
        ) from None
