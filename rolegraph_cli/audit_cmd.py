"""`rolegraph audit AUDIT_ID`: the chain of skill calls recorded under one audit id."""

from __future__ import annotations

import argparse

from checkpoints.audit import AUDIT_COLUMNS, audit_cells, fetch_audit_chain
from rolegraph_cli.common import open_project_database, run_command


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    audit = subparsers.add_parser("audit")
    audit.add_argument("audit_id")
    audit.set_defaults(handler=lambda args: run_command(lambda: _show(args.audit_id)))


async def _show(audit_id: str) -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        chain = await fetch_audit_chain(conn, audit_id)
    rows = [AUDIT_COLUMNS, *(audit_cells(record) for record in chain)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(AUDIT_COLUMNS))]
    print(f"audit {audit_id}: {len(chain)} event(s)")
    for row in rows:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
    return 0
