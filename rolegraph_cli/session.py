"""Open the database, build the support context and compile the graph."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from checkpoints.runtime import Database, open_database
from graphs.api import compile_support
from nodes.bootstrap import build_support_context
from nodes.context import SupportContext
from nodes.models.tiers import ModelTiers


@dataclass(frozen=True)
class Session:
    db: Database
    ctx: SupportContext
    graph: Any


@asynccontextmanager
async def open_session(*, quiet: bool = False) -> AsyncIterator[Session]:
    models = ModelTiers.from_env(os.environ)
    if not models.available and not quiet:
        print(f"rolegraph: {models.describe()}", file=sys.stderr)
    async with open_database() as db:
        ctx = await build_support_context(db.pool, models=models if models.available else None)
        yield Session(db=db, ctx=ctx, graph=compile_support(ctx, db.checkpointer))
