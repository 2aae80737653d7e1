"""What an operator can answer now: pending requests the graph is still waiting on."""

from __future__ import annotations

from typing import Any

from langgraph.graph.state import CompiledStateGraph

from checkpoints.inbox import InboxItem, pending_requests
from checkpoints.opening import Pool
from nodes.hitl import requests_in


async def answerable_requests(
    graph: CompiledStateGraph[Any, Any, Any, Any], pool: Pool
) -> list[InboxItem]:
    """Pending requests whose thread is interrupted on exactly that request, oldest first.

    A row left `pending` by a thread that moved on (crashed past it, answered
    through another path, pruned) is not shown: answering it would fail.
    """
    async with pool.connection() as conn:
        candidates = await pending_requests(conn)
    waiting: dict[str, set[str]] = {}
    for item in candidates:
        if item.thread_id not in waiting:
            waiting[item.thread_id] = await _interrupted_on(graph, item.thread_id)
    return [item for item in candidates if item.request_id in waiting[item.thread_id]]


async def _interrupted_on(
    graph: CompiledStateGraph[Any, Any, Any, Any], thread_id: str
) -> set[str]:
    snapshot = await graph.aget_state({"configurable": {"thread_id": thread_id}})
    return {
        str(request.get("id"))
        for interrupt in snapshot.interrupts
        for request in requests_in(interrupt.value)
    }
