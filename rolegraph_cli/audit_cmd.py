"""`rolegraph audit AUDIT_ID`: the chain of skill calls recorded under one audit id."""

from __future__ import annotations

import argparse

from checkpoints.audit import AuditRecord, fetch_audit_chain
from rolegraph_cli.common import open_project_database, run_command

_HEADER = (
    "time", "step", "node", "role", "skill@version", "status",
    "error", "retries", "duration_ms", "breaker", "approval",
)  # fmt: skip


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    audit = subparsers.add_parser("audit")
    audit.add_argument("audit_id")
    audit.set_defaults(handler=lambda args: run_command(lambda: _show(args.audit_id)))


async def _show(audit_id: str) -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        chain = await fetch_audit_chain(conn, audit_id)
    rows = [_HEADER, *(_cells(record) for record in chain)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(_HEADER))]
    print(f"audit {audit_id}: {len(chain)} event(s)")
    for row in rows:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
    return 0


def _cells(record: AuditRecord) -> tuple[str, ...]:
    e = record.event
    skill = f"{e.skill}@{e.version}" if e.version else (e.skill or "-")
    return (
        record.created_at.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],
        str(e.step),
        e.node or "-",
        e.role or "-",
        skill,
        e.status,
        e.error_code or "-",
        str(e.retries),
        str(e.duration_ms),
        e.breaker_state or "-",
        e.approval_id or "-",
    )
