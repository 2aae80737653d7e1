"""Finding the chosen domain pack, and the commands it adds, without loading it whole.

The CLI must list its commands (`rolegraph --help`) in a fraction of a
second, so nothing here imports LangGraph, the model tiers or a pack's
`DOMAIN`: a pack's package module names its command groups in `COMMANDS`,
and only the group a command line chose is imported.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from types import ModuleType
from typing import NamedTuple

from checkpoints.errors import ConfigurationError

DEFAULT_DOMAIN = "retail"
DOMAIN_ENV = "ROLEGRAPH_DOMAIN"


class CommandGroup(NamedTuple):
    """One top-level CLI command: its name, its one-line help, and the module that builds it.

    The module has `register(subparsers)`, which adds this command (and any
    sibling of the same module) with its arguments and handler.
    """

    name: str
    help: str
    module: str


def chosen_pack(name: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The pack name `name` picks, else `ROLEGRAPH_DOMAIN`, else the default."""
    env = os.environ if env is None else env
    return (name or env.get(DOMAIN_ENV) or DEFAULT_DOMAIN).strip()


def import_pack(chosen: str) -> ModuleType:
    """The pack's package module: a bare name is a pack under `domains/`, a dotted one any module."""
    module_name = chosen if "." in chosen else f"domains.{chosen}"
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise ConfigurationError(
                f"{DOMAIN_ENV}={chosen!r}: no domain pack {module_name!r}; "
                f"use a pack under domains/ (e.g. {DEFAULT_DOMAIN}) or an importable module"
            ) from exc
        raise


def pack_commands(env: Mapping[str, str] | None = None) -> tuple[CommandGroup, ...]:
    """The commands the chosen pack adds, read from its `COMMANDS` (none when it has none)."""
    commands = getattr(import_pack(chosen_pack(env=env)), "COMMANDS", ())
    if not all(isinstance(c, CommandGroup) for c in commands):
        raise ConfigurationError(
            f"{DOMAIN_ENV}={chosen_pack(env=env)!r}: COMMANDS must hold nodes.packs.CommandGroup"
            " entries (name, help, module)"
        )
    return tuple(commands)
