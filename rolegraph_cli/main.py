"""`rolegraph` command line: a thin layer over the Python API.

Each command group lives in its own module exposing `register(subparsers)`;
this module only assembles them and turns user errors into one line on
stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from checkpoints.errors import RolegraphError
from nodes.domain import load_domain
from nodes.inputs import check_argv
from nodes.tracing import install_tracing, shutdown_tracing
from rolegraph_cli import (
    audit_cmd,
    conversations_cmd,
    db_cmd,
    memory_cmd,
    notify_cmd,
    support_cmd,
    threads_cmd,
    tokens_cmd,
)

EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE, as a shell reports a reader that went away."""
COMMAND_GROUPS = (
    db_cmd,
    threads_cmd,
    tokens_cmd,
    audit_cmd,
    support_cmd,
    notify_cmd,
    memory_cmd,
    conversations_cmd,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rolegraph",
        description="Multi-agent customer operations on LangGraph with enforced roles.",
    )
    parser.add_argument("--version", action="version", version=f"rolegraph {_version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # The chosen domain adds its own groups (retail: `data`, `tau2`).
    for group in (*COMMAND_GROUPS, *load_domain().commands):
        group.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        check_argv(argv)
        parser = build_parser()  # loads the domain pack, which adds its commands
    except RolegraphError as exc:
        print(f"rolegraph: error: {exc}", file=sys.stderr)
        return exc.exit_code
    args = parser.parse_args(argv)
    install_tracing(os.environ)
    try:
        code: int = args.handler(args)
    except BrokenPipeError:
        # `rolegraph ... | head` closed the pipe: stop quietly, as other tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    finally:
        # A short-lived process: its spans are exported before it exits.
        shutdown_tracing()
    return code


def _version() -> str:
    try:
        return version("rolegraph")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
