"""Where a thread stands, read through the project's own Python API (`graphs.api.report`)."""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from checkpoints.database import DatabaseTarget
from checkpoints.errors import NotFound
from graphs.api import RunReport, report
from graphs.support import build_support_graph
from nodes.bootstrap import load_static_config


def thread_report(target: DatabaseTarget, thread_id: str) -> RunReport | None:
    """The thread's report, or None when no checkpoint of it exists."""
    return asyncio.run(_report(target, thread_id))


def thread_values(target: DatabaseTarget, thread_id: str) -> dict[str, Any]:
    """The thread's latest state values (what a state read returns)."""
    return asyncio.run(_values(target, thread_id))


async def _report(target: DatabaseTarget, thread_id: str) -> RunReport | None:
    async with AsyncPostgresSaver.from_conn_string(target.url) as saver:
        try:
            return await report(_graph().compile(checkpointer=saver), thread_id)
        except NotFound:
            return None


async def _values(target: DatabaseTarget, thread_id: str) -> dict[str, Any]:
    async with AsyncPostgresSaver.from_conn_string(target.url) as saver:
        snapshot = (
            await _graph()
            .compile(checkpointer=saver)
            .aget_state({"configurable": {"thread_id": thread_id}})
        )
    return dict(snapshot.values or {})


@cache
def _graph() -> Any:
    return build_support_graph(load_static_config()[1])
