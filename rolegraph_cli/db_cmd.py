"""`rolegraph db status`."""

from __future__ import annotations

import argparse

from checkpoints.status import database_status
from rolegraph_cli.common import open_project_database, run_command


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    db = subparsers.add_parser("db")
    commands = db.add_subparsers(dest="db_command", required=True, metavar="SUBCOMMAND")
    status = commands.add_parser("status", help="where the database is, version, row counts")
    status.set_defaults(handler=lambda args: run_command(_status))


async def _status() -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        report = await database_status(conn, db.target)
    print(f"database: {report.kind} at {report.location}")
    print(f"server:   PostgreSQL {report.server_version}")
    width = max((len(name) for name in report.tables), default=0)
    for name, count in report.tables.items():
        print(f"  {name:<{width}}  {count:>8}")
    return 0
