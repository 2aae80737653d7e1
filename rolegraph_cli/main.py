"""`rolegraph` command line: a thin layer over the Python API.

Each command group lives in its own module exposing `register(subparsers)`;
this module only assembles them and turns user errors into one line on
stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from checkpoints.errors import RolegraphError
from nodes.encoding import check_argv
from nodes.packs import CommandGroup, pack_commands
from rolegraph_cli.commands import HARNESS_COMMANDS

EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE, as a shell reports a reader that went away."""


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser for `argv`: every command listed, only the chosen one's module imported.

    Importing every command group (and through them LangGraph, the pack and
    the model tiers) would cost `rolegraph --help` seconds; the others stay
    one-line entries that are never parsed.
    """
    parser = argparse.ArgumentParser(
        prog="rolegraph",
        description="Multi-agent customer operations on LangGraph with enforced roles.",
    )
    parser.add_argument("--version", action=_Version, help="show program's version number and exit")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # The chosen domain adds its own groups (retail: `data`, `tau2`).
    commands = (*HARNESS_COMMANDS, *pack_commands())
    chosen = next((c for c in commands if c.name == _command_word(argv)), None)
    if chosen is not None:
        importlib.import_module(chosen.module).register(subparsers)
        _describe(subparsers.choices, commands)
    for command in commands:
        if command.name not in subparsers.choices:
            subparsers.add_parser(command.name, help=command.help)
    return parser


def _command_word(argv: Sequence[str]) -> str | None:
    """The command a command line names; None when an option (`--help`) comes first."""
    return argv[0] if argv and not argv[0].startswith("-") else None


def _describe(
    parsers: dict[str, argparse.ArgumentParser], commands: Sequence[CommandGroup]
) -> None:
    for command in commands:
        if command.name in parsers and parsers[command.name].description is None:
            parsers[command.name].description = command.help


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        check_argv(argv)
        with _importing():
            parser = build_parser(argv)
    except RolegraphError as exc:
        print(f"rolegraph: error: {exc}", file=sys.stderr)
        return exc.exit_code
    args = parser.parse_args(argv)
    # Imported past the parse: `--help` exits in it and never pays for OpenTelemetry.
    from nodes.tracing import install_tracing, shutdown_tracing

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


@contextmanager
def _importing() -> Iterator[None]:
    """No garbage collection while a command's modules are imported; what they
    built is frozen afterwards.

    The import makes a few hundred thousand long-lived objects (modules,
    classes, schemas) and next to no garbage: collecting meanwhile cost a
    quarter of a `rolegraph run` process's CPU, and every later full
    collection would walk them all again.
    """
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


class _Version(argparse.Action):
    """`--version`, looked up only when asked: importlib.metadata costs every
    other command line (`--help` above all) a few dozen milliseconds."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("rolegraph")
        except PackageNotFoundError:  # run from a checkout that was never installed
            found = "unknown"
        print(f"rolegraph {found}")
        parser.exit()


if __name__ == "__main__":
    sys.exit(main())
