"""`rolegraph threads list|show|prune`: inspect and retain checkpointed threads."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from checkpoints.errors import NotFound
from checkpoints.retention import CHECKPOINT_TABLES, list_threads, parse_age, prune_threads
from checkpoints.row_retention import RULES, RetentionSettings, prune_rows, table_bytes, vacuum
from graphs.api import thread_status
from rolegraph_cli.common import open_project_database, run_command
from rolegraph_cli.session import open_session


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    threads = subparsers.add_parser("threads")
    commands = threads.add_subparsers(dest="threads_command", required=True, metavar="SUBCOMMAND")
    commands.add_parser("list", help="threads, newest first").set_defaults(
        handler=lambda args: run_command(_list)
    )
    show = commands.add_parser("show", help="the latest checkpoint of one thread")
    show.add_argument("thread_id")
    show.set_defaults(handler=lambda args: run_command(lambda: _show(args.thread_id)))
    prune = commands.add_parser(
        "prune",
        help="delete threads older than an age, and finished audit/ledger/approval/token/"
        "notification rows past their ROLEGRAPH_RETAIN_* period; then VACUUM",
    )
    prune.add_argument("--older-than", required=True, help="age such as 7d, 12h, 30m")
    prune.add_argument(
        "--keep-latest", action="store_true", help="keep each old thread's newest checkpoint"
    )
    prune.add_argument(
        "--force", action="store_true", help="also prune threads waiting on a pending approval"
    )
    prune.set_defaults(handler=lambda args: run_command(lambda: _prune(args)))


async def _list() -> int:
    async with open_session(quiet=True) as s:
        async with s.db.pool.connection() as conn:
            threads = await list_threads(conn)
        for t in threads:
            status = await thread_status(s.graph, s.ctx, t.thread_id)
            print(
                f"{t.thread_id}  {status}  checkpoints={t.checkpoints}"
                f"  updated={t.updated_at.isoformat()}"
            )
    print(f"{len(threads)} thread(s)")
    return 0


async def _show(thread_id: str) -> int:
    async with open_project_database() as db:
        snapshot = await db.checkpointer.aget_tuple({"configurable": {"thread_id": thread_id}})
    if snapshot is None:
        raise NotFound(f"no thread {thread_id!r}; list threads with `rolegraph threads list`")
    checkpoint, metadata = snapshot.checkpoint, snapshot.metadata or {}
    print(f"thread:     {thread_id}")
    print(f"checkpoint: {checkpoint['id']} at {checkpoint['ts']} (step {metadata.get('step')})")
    for channel, value in sorted(checkpoint["channel_values"].items()):
        if not channel.startswith("__") and ":" not in channel:
            print(f"  {channel}: {_short(value)}")
    interrupts = [w for w in snapshot.pending_writes or [] if w[1] == "__interrupt__"]
    for _task, _channel, value in interrupts:
        print(f"  pending interrupt: {_short(value)}")
    return 0


async def _prune(args: argparse.Namespace) -> int:
    age = parse_age(args.older_than)
    retention = RetentionSettings.from_env(os.environ)
    async with open_project_database() as db, db.pool.connection() as conn:
        before = await table_bytes(conn, _PRUNED_TABLES)
        report = await prune_threads(
            db.checkpointer, conn, older_than=age, keep_latest=args.keep_latest, force=args.force
        )
        rows = await prune_rows(conn, retention)
        touched = [t for t, n in rows.items() if n] + (
            CHECKPOINT_TABLES if report.thread_ids else []
        )
        await vacuum(conn, touched)
        after = await table_bytes(conn, _PRUNED_TABLES)
    removed = report.checkpoints_before - report.checkpoints_after
    print(
        f"pruned {len(report.thread_ids)} thread(s) older than {args.older_than}"
        f" ({report.strategy}); removed {removed} checkpoint(s)"
    )
    if report.kept_pending:
        print(
            f"kept {len(report.kept_pending)} thread(s) waiting on a pending approval"
            f" ({', '.join(report.kept_pending[:5])}); answer them or pass --force"
        )
    print("removed rows: " + ", ".join(f"{table}={n}" for table, n in rows.items()))
    if touched:
        print(
            f"vacuumed {', '.join(touched)}: {after // 1024} KiB on disk (was {before // 1024} KiB)"
        )
    return 0


_PRUNED_TABLES = [*CHECKPOINT_TABLES, *(rule.table for rule in RULES)]


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"
