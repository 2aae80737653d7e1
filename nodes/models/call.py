"""Walk down the model ladder: ask one tier, check its answer, else the next.

Shared by every node with a model tier. A tier fails when the call raises,
times out, or its reply is rejected by the caller's `accept` check; it is
skipped when its circuit breaker is open or the request's deadline is spent.
The caller falls back to its rules tier when every tier failed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from checkpoints.opening import Pool
from nodes.context import run_position
from nodes.errors import ModelCallTimeout, ModelDeadlineExceeded, ModelOutputInvalid
from nodes.models.invoke import invoke
from nodes.models.tiers import ModelSize, ModelTiers, model_name
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
    found = run_position().thread_id or state.get("thread_id")
    return CallSite(node=node, role=role, thread_id=str(found) if found else None)


async def descend(
    tiers: ModelTiers,
    pool: Pool,
    site: CallSite,
    start: ModelSize,
    messages: Sequence[BaseMessage],
    accept: Callable[[str, ModelSize], T],
) -> T | None:
    """The first accepted answer from `start` down the ladder, or None."""
    for tier, model in tiers.ladder(start):
        reply = await _ask(tiers, site, tier, model, messages)
        if reply is None:
            continue
        # Tokens were spent even when the answer is then rejected.
        await _record(pool, site, model, reply)
        try:
            return accept(reply.text, tier)
        except ModelOutputInvalid as exc:
            log.warning("%s: %s tier answer rejected: %s", site.node, tier, exc.problem)
    return None


async def _ask(
    tiers: ModelTiers,
    site: CallSite,
    tier: ModelSize,
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
) -> BaseMessage | None:
    """One tier's reply; None when its breaker is open, the deadline is spent or it failed."""
    deadline = tiers.requests.deadline(site.thread_id, tiers.request_timeout_s)
    if deadline <= tiers.requests.now():
        log.warning("%s: %s tier skipped: the request's model time is spent", site.node, tier)
        return None
    if not tiers.breakers.admit(tier):
        log.warning("%s: %s tier skipped: its circuit breaker is open", site.node, tier)
        return None
    try:
        reply = await invoke(
            model, messages, per_call_s=tiers.timeout_s, deadline=deadline, clock=tiers.requests.now
        )
    except ModelDeadlineExceeded:
        tiers.breakers.release(tier)
        log.warning("%s: %s tier skipped: the request's model time is spent", site.node, tier)
        return None
    except ModelCallTimeout as exc:
        tiers.breakers.failed(tier, opens=not exc.clipped)
        log.warning("%s: %s tier timed out after %.1fs", site.node, tier, exc.seconds)
        return None
    except Exception as exc:  # noqa: BLE001 — endpoint down, HTTP error, bad credentials: the next tier answers
        tiers.breakers.failed(tier)
        log.warning("%s: %s tier failed: %s", site.node, tier, type(exc).__name__)
        return None
    except BaseException:  # cancelled: says nothing about the endpoint
        tiers.breakers.release(tier)
        raise
    tiers.breakers.succeeded(tier)
    return reply


async def _record(pool: Pool, site: CallSite, model: BaseChatModel, reply: BaseMessage) -> None:
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


async def ask_tier(
    tiers: ModelTiers,
    pool: Pool,
    site: CallSite,
    tier: ModelSize,
    model: BaseChatModel,
    bound: Runnable[Sequence[BaseMessage], BaseMessage],
    messages: Sequence[BaseMessage],
) -> BaseMessage | None:
    """One tier's whole reply through `bound` (`model` with tools bound), its tokens
    recorded against `model`; None when the tier was skipped or failed.

    For callers that need the reply's tool calls, not the text `descend` accepts.
    """
    # A tool-bound model answers like the model itself: same breaker, same deadline.
    reply = await _ask(tiers, site, tier, cast(BaseChatModel, bound), messages)
    if reply is not None:
        await _record(pool, site, model, reply)
    return reply
