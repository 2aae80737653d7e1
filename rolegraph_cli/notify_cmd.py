"""`rolegraph notify deliver|list|retry|drop`: the notifications outbox (customers'
e-mails, and the operators' notices of waiting requests by e-mail and webhook).

`deliver` runs the delivery worker once, or with `--loop` until Ctrl-C /
SIGTERM (it finishes the row it is sending first). `retry` and `drop` are
the operator's answer to a row whose outcome is unknown.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import signal
from typing import cast
from urllib.parse import urlsplit

from checkpoints import outbox
from checkpoints.errors import InvalidArgument, NotFound
from checkpoints.opening import Pool
from checkpoints.outbox import Notification, NotificationStatus
from rolegraph_cli.common import open_project_database, run_command
from skills.outbox.operator_settings import NO_OPERATOR_EMAIL, OperatorNotices
from skills.outbox.settings import DeliverySettings
from skills.outbox.worker import DeliveryCounts, deliver_due, run_worker
from skills.pii import mask_email


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    notify = subparsers.add_parser("notify")
    commands = notify.add_subparsers(dest="notify_command", required=True, metavar="SUBCOMMAND")
    deliver = commands.add_parser("deliver", help="send due notifications (once, or --loop)")
    deliver.add_argument("--loop", action="store_true", help="keep delivering until interrupted")
    deliver.add_argument("--interval", type=float, help="seconds between idle passes (--loop)")
    deliver.set_defaults(handler=lambda args: run_command(lambda: _deliver(args)))
    listing = commands.add_parser("list", help="notifications, newest first")
    listing.add_argument("--status", choices=outbox.STATUSES, help="only rows in this status")
    listing.add_argument("--limit", type=int, default=50)
    listing.set_defaults(handler=lambda args: run_command(lambda: _list(args)))
    for name, text in (
        ("retry", "deliver an unknown or failed notification again (after checking it)"),
        ("drop", "give up an unknown or pending notification: it is never sent"),
    ):
        command = commands.add_parser(name, help=text)
        command.add_argument("notification_id", type=int)
        command.set_defaults(handler=lambda args: run_command(lambda: _decide(args)))


async def _deliver(args: argparse.Namespace) -> int:
    settings = DeliverySettings.from_env(os.environ)
    if args.interval is not None and args.interval <= 0:
        raise InvalidArgument(
            f"--interval must be a positive number of seconds, got {args.interval}"
        )
    async with open_project_database() as db:
        if args.loop:
            counts = await _loop(db.pool, settings, args.interval)
        else:
            counts = await deliver_due(db.pool, settings)
        async with db.pool.connection() as conn:
            waiting = await outbox.status_counts(conn)
    print(f"notify deliver: {counts.summary()}")
    if waiting["unknown"]:
        print(
            f"notify deliver: {waiting['unknown']} notification(s) with an unknown outcome wait"
            " for an operator: `rolegraph notify list --status unknown`, then"
            " `rolegraph notify retry ID` or `rolegraph notify drop ID`"
        )
    return 0


async def _loop(pool: Pool, settings: DeliverySettings, interval: float | None) -> DeliveryCounts:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    print("notify deliver: running; Ctrl-C stops after the current message", flush=True)

    def report(counts: DeliveryCounts) -> None:
        print(f"notify deliver: {counts.summary()}", flush=True)

    try:
        return await run_worker(pool, settings, stop, interval, on_pass=report)
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


async def _list(args: argparse.Namespace) -> int:
    async with open_project_database() as db, db.pool.connection() as conn:
        counts = await outbox.status_counts(conn)
        rows = await outbox.list_rows(
            conn, cast(NotificationStatus | None, args.status), args.limit
        )
    print("notifications: " + ", ".join(f"{n} {status}" for status, n in counts.items()))
    if not OperatorNotices.from_env(os.environ).recipients:
        print(f"notifications: {NO_OPERATOR_EMAIL}")
    for row in rows:
        print(_line(row))
    return 0


def _line(row: Notification) -> str:
    when = (row.sent_at if row.status == "sent" else None) or row.next_attempt_at
    cells = [
        str(row.id), row.status, f"attempts={row.attempts}", _recipient(row),
        when.strftime("%Y-%m-%d %H:%M:%S"), row.message_id, repr(row.subject[:40]),
    ]  # fmt: skip
    if row.last_error:
        cells.append(f"last_error={row.last_error[:120]!r}")
    return "  ".join(cells)


def _recipient(row: Notification) -> str:
    if row.channel == "webhook":  # the URL's path or query may carry a receiver's token
        url = urlsplit(row.recipient)
        return f"webhook {url.scheme}://{url.netloc.rpartition('@')[2]}"
    return mask_email(row.recipient)


async def _decide(args: argparse.Namespace) -> int:
    operator = os.environ.get("ROLEGRAPH_OPERATOR") or getpass.getuser()
    decide = outbox.operator_retry if args.notify_command == "retry" else outbox.operator_drop
    async with open_project_database() as db, db.pool.connection() as conn:
        row = await outbox.get(conn, args.notification_id)
        if row is None:
            raise NotFound(f"no notification {args.notification_id}; see `rolegraph notify list`")
        if not await decide(conn, row.id, operator):
            allowed = (
                "unknown or failed" if args.notify_command == "retry" else "unknown or pending"
            )
            raise InvalidArgument(
                f"notification {row.id} is {row.status}; only an {allowed} one can be"
                f" {'retried' if args.notify_command == 'retry' else 'dropped'}"
            )
    verb = "queued again" if args.notify_command == "retry" else "dropped"
    print(f"notification {row.id}: {verb} by {operator}")
    return 0
