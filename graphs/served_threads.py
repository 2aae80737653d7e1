"""What a served thread's last checkpoint in Postgres says about it: its owner, and
whether its last turn waits for an operator (the server's auth decides from this)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langgraph.checkpoint.serde.types import INTERRUPT, RESUME

from graphs.served_persistence import served_database
from nodes.hitl import requests_in

OWNER_KEY = "owner"
# Thread metadata the server needs to serve a thread it forgot on restart.
_ATTACH_KEYS = ("graph_id", "assistant_id")


@dataclass(frozen=True)
class Checkpointed:
    """What a thread's last checkpoint in Postgres says about the thread."""

    owner: str
    """The owner's identity label; empty when the checkpoints name nobody (a
    thread not started through this server: only an operator may attach it)."""
    metadata: Mapping[str, Any]
    unfinished: bool = False
    """A turn started and has no final status yet (interrupted, or its run died)."""
    waiting: tuple[dict[str, Any], ...] = ()
    """The requests its interrupt asks an operator about (`nodes.hitl.requests_in`)."""
    interrupt_ids: frozenset[str] = frozenset()
    waits_for_operator: bool = False
    """The unfinished turn stopped at an interrupt nobody has answered yet."""

    def thread_metadata(self, *, default_owner: str) -> dict[str, Any]:
        kept = {k: self.metadata[k] for k in _ATTACH_KEYS if isinstance(self.metadata.get(k), str)}
        return {**kept, OWNER_KEY: self.owner or default_owner}


async def checkpointed(thread_id: Any) -> Checkpointed | None:
    """The thread's record in Postgres, or None if it has no checkpoint."""
    if not thread_id:
        return None
    db = await served_database()
    config = {"configurable": {"thread_id": str(thread_id), "checkpoint_ns": ""}}
    snapshot = await db.checkpointer.aget_tuple(config)  # type: ignore[arg-type]
    if snapshot is None:
        return None
    metadata: Mapping[str, Any] = snapshot.metadata or {}
    owner = metadata.get(OWNER_KEY)
    values: Mapping[str, Any] = snapshot.checkpoint.get("channel_values") or {}
    interrupts = [
        i for _task, channel, value in snapshot.pending_writes or () if channel == INTERRUPT
        for i in (value if isinstance(value, list) else [value])
    ]  # fmt: skip
    return Checkpointed(
        owner=owner if isinstance(owner, str) else "",
        metadata=metadata,
        unfinished=bool(values.get("turn")) and not values.get("status"),
        waiting=tuple(r for i in interrupts for r in requests_in(getattr(i, "value", None))),
        interrupt_ids=frozenset(str(getattr(i, "id", "")) for i in interrupts),
        waits_for_operator=waits_for_operator(snapshot.pending_writes or []),
    )


def waits_for_operator(writes: list[tuple[str, str, Any]]) -> bool:
    # A decision already written but not yet used is a run that died (graphs.api.report).
    channels = {channel for _, channel, _ in writes}
    return INTERRUPT in channels and RESUME not in channels
