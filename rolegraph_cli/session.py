"""Open the database, build the support context and compile the graph."""

from __future__ import annotations

import getpass
import os
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from checkpoints.opening import Database
from graphs.api import compile_support
from graphs.modes import resolve_mode
from nodes.bootstrap import build_support_context
from nodes.context import SupportContext
from nodes.identity import Identity
from nodes.models.tiers import ModelTiers
from rolegraph_cli.common import open_project_database


@dataclass(frozen=True)
class Session:
    db: Database
    ctx: SupportContext
    graph: Any
    operator: Identity
    """Who the CLI acts as: the local operator (ROLEGRAPH_OPERATOR, else the OS user)."""


def local_operator(env: Mapping[str, str]) -> Identity:
    """The operator a local CLI user is: whoever can run it on this machine's database."""
    return Identity("operator", env.get("ROLEGRAPH_OPERATOR") or getpass.getuser())


@asynccontextmanager
async def open_session(
    *, quiet: bool = False, mode: str | None = None, thread_id: str | None = None
) -> AsyncIterator[Session]:
    """The session's graph is of `thread_id`'s own mode when it has one (`mode`, if
    given, must be that one), else of `mode` (`graphs.modes`; support by default)."""
    models = ModelTiers.from_env(os.environ)
    if not models.available and not quiet:
        print(f"rolegraph: {models.describe()}", file=sys.stderr)
    async with open_project_database() as db:
        ctx = await build_support_context(db.pool, models=models if models.available else None)
        chosen = await resolve_mode(db.checkpointer, thread_id, mode)
        graph = compile_support(ctx, db.checkpointer, db.store, mode=chosen)
        yield Session(db=db, ctx=ctx, graph=graph, operator=local_operator(os.environ))
