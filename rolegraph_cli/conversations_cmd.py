"""`rolegraph conversations run FILE`: a scripted conversation suite, scored turn by turn."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from checkpoints.errors import InvalidArgument
from graphs.conversations import ConversationResult, load_suite, run_suite
from rolegraph_cli.common import run_command
from rolegraph_cli.session import open_session

EXIT_BELOW = 1
"""Exit code when the turn pass rate is below `--min-pass` (bad files and faults exit 2)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    group = subparsers.add_parser("conversations")
    commands = group.add_subparsers(
        dest="conversations_command", required=True, metavar="SUBCOMMAND"
    )
    run = commands.add_parser(
        "run", help="run every conversation of a suite file; print N passed, N failed"
    )
    run.add_argument(
        "file", type=Path, help="a suite YAML file (e.g. a pack's conversations/suite.yaml)"
    )
    run.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    run.add_argument(
        "--min-pass", type=float, default=0.95, metavar="RATE",
        help="exit 1 when fewer turns than this share pass (default 0.95)",
    )  # fmt: skip
    run.set_defaults(handler=lambda a: run_command(lambda: _run(a)))


async def _run(args: argparse.Namespace) -> int:
    if not 0.0 <= args.min_pass <= 1.0:
        raise InvalidArgument(f"--min-pass {args.min_pass} is not a rate; pass 0..1, e.g. 0.95")
    suite = load_suite(args.file)
    async with open_session(quiet=args.json) as s:
        report = await run_suite(
            s.graph, s.ctx, suite, operator=s.operator, on_result=None if args.json else _show
        )
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        print("\n".join(report.summary()))
    return 0 if report.pass_rate >= args.min_pass else EXIT_BELOW


def _show(result: ConversationResult) -> None:
    print("\n".join(result.describe()), flush=True)
