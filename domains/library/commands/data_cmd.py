"""`rolegraph data load|counts`: the library's shipped data set."""

from __future__ import annotations

import argparse
from pathlib import Path

from domains.library.storage import seed, store
from rolegraph_cli.common import open_project_database, run_command


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    data = subparsers.add_parser("data")
    commands = data.add_subparsers(dest="data_command", required=True, metavar="SUBCOMMAND")
    load = commands.add_parser("load", help="replace all library data with a JSON data set")
    load.add_argument(
        "path", type=Path, nargs="?", default=seed.DATA_FILE, help="default: the pack's data set"
    )
    load.set_defaults(handler=lambda args: run_command(lambda: _load(args.path)))
    counts = commands.add_parser("counts", help="print the rows of each library table")
    counts.set_defaults(handler=lambda args: run_command(_counts))


async def _load(path: Path) -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        loaded = await seed.load(conn, path)
    print("loaded " + ", ".join(f"{n} {table}" for table, n in loaded.items()))
    return 0


async def _counts() -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        found = await store.counts(conn)
    print(", ".join(f"{n} {table}" for table, n in found.items()))
    return 0
