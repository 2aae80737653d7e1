"""`rolegraph` command line: a thin layer over the Python API.

Each command group lives in its own module exposing `register(subparsers)`;
this module only assembles them and turns user errors into one line on
stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rolegraph_cli import (
    audit_cmd,
    data_cmd,
    db_cmd,
    notify_cmd,
    support_cmd,
    tau2_cmd,
    threads_cmd,
    tokens_cmd,
)

COMMAND_GROUPS = (
    db_cmd,
    data_cmd,
    threads_cmd,
    tokens_cmd,
    audit_cmd,
    tau2_cmd,
    support_cmd,
    notify_cmd,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rolegraph",
        description="Multi-agent customer operations on LangGraph with enforced roles.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in COMMAND_GROUPS:
        group.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    code: int = args.handler(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
