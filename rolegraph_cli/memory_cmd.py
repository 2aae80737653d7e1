"""`rolegraph memory list|forget --user U`: a customer's long-term memory, for operators."""

from __future__ import annotations

import argparse

from graphs.memory import forget_memory, list_memory
from nodes.domain import load_domain
from nodes.memory.facts import Remembered
from rolegraph_cli.common import open_project_database, run_command


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    memory = subparsers.add_parser("memory")
    commands = memory.add_subparsers(dest="memory_command", required=True, metavar="SUBCOMMAND")
    show = commands.add_parser("list", help="a customer's remembered facts, newest first")
    show.add_argument("--user", required=True, metavar="USER_ID")
    show.set_defaults(handler=lambda args: run_command(lambda: _list(args.user)))
    erase = commands.add_parser("forget", help="erase a customer's memory (or one fact key)")
    erase.add_argument("--user", required=True, metavar="USER_ID")
    erase.add_argument("--key", metavar="KEY", help="only this fact key (e.g. refund_method)")
    erase.set_defaults(handler=lambda args: run_command(lambda: _forget(args.user, args.key)))


async def _list(user_id: str) -> int:
    async with open_project_database() as db:
        found = await list_memory(db, load_domain(), user_id)
    current = _winners(found)
    for entry in found:
        print(_line(entry, entry in current))
    print(f"{len(found)} fact(s)")
    return 0


async def _forget(user_id: str, key: str | None) -> int:
    async with open_project_database() as db:
        gone = await forget_memory(db, load_domain(), user_id, key)
    what = f"fact(s) of key {key!r}" if key else "fact(s)"
    print(f"forgot {gone} {what} of {user_id}")
    return 0


def _winners(found: list[Remembered]) -> set[Remembered]:
    newest: dict[str, Remembered] = {}
    for entry in found:  # newest first
        newest.setdefault(entry.key, entry)
    return set(newest.values())


def _line(entry: Remembered, current: bool) -> str:
    state = "current" if current else "superseded"
    return (
        f"{entry.key}={entry.value}  {state}  seen={entry.count}"
        f"  first={entry.first_seen.isoformat(timespec='seconds')}"
        f"  last={entry.last_seen.isoformat(timespec='seconds')}"
    )
