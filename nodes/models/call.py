"""Walk down the model ladder: ask one tier, check its answer, else the next.

Shared by every node with a model tier. A tier fails when the call raises,
times out, or its reply is rejected by the caller's `accept` check; the
caller falls back to its rules tier when every tier failed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langgraph.config import get_config

from nodes.errors import ModelOutputInvalid
from nodes.models.tiers import ModelTier, ModelTiers, model_name
from nodes.models.usage import record_usage, usage_of

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class CallSite:
    """Who is asking, for the token ledger and logs."""

    node: str
    role: str | None = None
    thread_id: str | None = None


def call_site(node: str, state: dict[str, Any], role: str | None = None) -> CallSite:
    """The call site of a node, with the thread id of the running graph if any."""
    return CallSite(node=node, role=role, thread_id=current_thread_id(state))


def current_thread_id(state: dict[str, Any]) -> str | None:
    try:
        configurable = get_config().get("configurable", {})
    except RuntimeError:  # called outside a graph run (CLI helpers, tests)
        configurable = {}
    found = configurable.get("thread_id") or state.get("thread_id")
    return str(found) if found else None


async def descend(
    tiers: ModelTiers,
    pool: Any,
    site: CallSite,
    start: ModelTier,
    messages: Sequence[BaseMessage],
    accept: Callable[[str, ModelTier], T],
) -> T | None:
    """The first accepted answer from `start` down the ladder, or None."""
    for tier, model in tiers.ladder(start):
        try:
            reply = await _invoke(model, messages, tiers.timeout_s)
        except TimeoutError:
            log.warning("%s: %s tier timed out after %ss", site.node, tier, tiers.timeout_s)
            continue
        except Exception as exc:  # endpoint down, HTTP error, bad credentials...
            log.warning("%s: %s tier failed: %s", site.node, tier, type(exc).__name__)
            continue
        # Tokens were spent even when the answer is then rejected.
        await _record(pool, site, model, reply)
        try:
            return accept(reply.text, tier)
        except ModelOutputInvalid as exc:
            log.warning("%s: %s tier answer rejected: %s", site.node, tier, exc.problem)
    return None


async def _invoke(
    model: BaseChatModel, messages: Sequence[BaseMessage], timeout_s: float
) -> BaseMessage:
    # The client has its own timeout too; this one also bounds slow streaming
    # or a model object that has none.
    async with asyncio.timeout(timeout_s):
        return await model.ainvoke(list(messages))


async def _record(pool: Any, site: CallSite, model: BaseChatModel, reply: BaseMessage) -> None:
    usage = usage_of(reply)
    if usage is None or pool is None:
        return
    await record_usage(
        pool,
        thread_id=site.thread_id,
        node=site.node,
        role=site.role,
        model=model_name(model),
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
    )
