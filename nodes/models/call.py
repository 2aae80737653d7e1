"""Walk down the model ladder: ask one tier, check its answer, else the next.

Shared by every node with a model tier. The ladder starts at the node's
configured tier (`nodes.models.node_tiers`; `rules` asks no model). A tier
fails when the call raises, times out, or its reply is rejected by the
caller's `accept` check; it is skipped when its circuit breaker is open, the
request's deadline is spent, a token budget would be exceeded
(`nodes.models.budget`), or it names the same endpoint and model as a tier
already asked (the same request would be sent again). The caller falls back
to its rules tier when every tier failed.

Every call made is in the ledger (`nodes.models.accounting`), failed and
timed-out ones too, and every call sets `max_tokens` from the budget left.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from checkpoints.opening import Pool
from nodes.context import run_position
from nodes.errors import ModelCallTimeout, ModelDeadlineExceeded, ModelOutputInvalid
from nodes.models.accounting import CallSite, Spend, allowance, endpoint_of, record_call
from nodes.models.budget import BudgetScope
from nodes.models.invoke import invoke
from nodes.models.node_tiers import NodeTier
from nodes.models.tiers import ModelSize, ModelTiers

if TYPE_CHECKING:
    # Only annotations: a process with no model configured never imports the chat model classes.
    from langchain_core.language_models import BaseChatModel

log = logging.getLogger(__name__)
T = TypeVar("T")

__all__ = ["CallSite", "Descent", "ask_tier", "call_site", "descend", "descend_within_budget"]


@dataclass(frozen=True)
class Descent(Generic[T]):
    """What the ladder found, and the budget that kept a tier from being asked, if any."""

    value: T | None
    over_budget: BudgetScope | None = None


def call_site(node: str, state: dict[str, Any], role: str | None = None) -> CallSite:
    """The call site of a node, with the thread and audit id of the running request if any."""
    found = run_position().thread_id or state.get("thread_id")
    audit = state.get("audit_id")
    return CallSite(
        node=node,
        role=role,
        thread_id=str(found) if found else None,
        audit_id=str(audit) if audit else None,
    )


async def descend(
    tiers: ModelTiers,
    pool: Pool,
    site: CallSite,
    start: NodeTier,
    messages: Sequence[BaseMessage],
    accept: Callable[[str, ModelSize], T],
) -> T | None:
    """The first accepted answer from the node's tier down the ladder, or None."""
    found = await descend_within_budget(tiers, pool, site, start, messages, accept)
    return found.value


async def descend_within_budget(
    tiers: ModelTiers,
    pool: Pool,
    site: CallSite,
    start: NodeTier,
    messages: Sequence[BaseMessage],
    accept: Callable[[str, ModelSize], T],
) -> Descent[T]:
    """Like `descend`, also saying which budget stopped a tier (`start` is the declared tier;
    the node's `ROLEGRAPH_TIER_<NODE>` setting overrides it)."""
    asked: set[tuple[str, ...]] = set()
    over: BudgetScope | None = None
    for tier, model in tiers.ladder_from(tiers.nodes.start(site.node, start)):
        endpoint = endpoint_of(model)
        if endpoint in asked:
            log.warning("%s: %s tier skipped: the same model was just asked", site.node, tier)
            continue
        allowed = await allowance(tiers.budgets, pool, site, messages)
        if allowed.over is not None:
            over = allowed.over
            log.warning("%s: %s tier skipped: the %s token budget is spent", site.node, tier, over)
            continue
        asked.add(endpoint)
        spend = Spend(site, model, messages, allowed.max_tokens)
        reply = await _ask(tiers, pool, tier, spend)
        if reply is None:
            continue
        try:
            return Descent(accept(reply.text, tier))
        except ModelOutputInvalid as exc:
            log.warning("%s: %s tier answer rejected: %s", site.node, tier, exc.problem)
    return Descent(None, over)


async def _ask(tiers: ModelTiers, pool: Pool, tier: ModelSize, spend: Spend) -> BaseMessage | None:
    """One tier's reply, recorded; None when its breaker is open, the deadline is spent or it failed."""
    site = spend.site
    deadline = tiers.requests.deadline(site.thread_id, tiers.request_timeout_s)
    if deadline <= tiers.requests.now():
        log.warning("%s: %s tier skipped: the request's model time is spent", site.node, tier)
        return None
    if not tiers.breakers.admit(tier):
        log.warning("%s: %s tier skipped: its circuit breaker is open", site.node, tier)
        return None
    try:
        reply = await _invoke(tiers, spend, deadline)
    except ModelDeadlineExceeded:
        tiers.breakers.release(tier)
        log.warning("%s: %s tier skipped: the request's model time is spent", site.node, tier)
        return None
    except ModelCallTimeout as exc:
        tiers.breakers.failed(tier, opens=not exc.clipped)
        log.warning("%s: %s tier timed out after %.1fs", site.node, tier, exc.seconds)
        await record_call(pool, spend, None, "timed_out")
        return None
    except Exception as exc:  # noqa: BLE001 — endpoint down, HTTP error, bad credentials: the next tier answers
        tiers.breakers.failed(tier)
        log.warning("%s: %s tier failed: %s", site.node, tier, type(exc).__name__)
        await record_call(pool, spend, None, "failed")
        return None
    except BaseException:  # cancelled: says nothing about the endpoint
        tiers.breakers.release(tier)
        raise
    tiers.breakers.succeeded(tier)
    # Tokens were spent even when the answer is then rejected.
    await record_call(pool, spend, reply, "replied")
    return reply


async def _invoke(tiers: ModelTiers, spend: Spend, deadline: float) -> BaseMessage:
    return await invoke(
        cast("BaseChatModel", spend.via) if spend.via is not None else spend.model,
        spend.messages,
        per_call_s=tiers.timeout_s,
        deadline=deadline,
        clock=tiers.requests.now,
        max_tokens=spend.max_tokens,
    )


async def ask_tier(
    tiers: ModelTiers,
    pool: Pool,
    site: CallSite,
    tier: ModelSize,
    model: BaseChatModel,
    bound: Runnable[Sequence[BaseMessage], BaseMessage],
    messages: Sequence[BaseMessage],
    tools: Sequence[Mapping[str, Any]] = (),
) -> Descent[BaseMessage]:
    """One tier's whole reply through `bound` (`model` with tools bound), recorded
    against `model`; no value when the tier was skipped (breaker, deadline, budget — then
    `over_budget` names it) or failed.

    For callers that need the reply's tool calls, not the text `descend` accepts.
    """
    allowed = await allowance(tiers.budgets, pool, site, messages, tools)
    if allowed.over is not None:
        log.warning(
            "%s: %s tier skipped: the %s token budget is spent", site.node, tier, allowed.over
        )
        return Descent(None, allowed.over)
    # A tool-bound model answers like the model itself: same breaker, deadline, ledger.
    spend = Spend(site, model, messages, allowed.max_tokens, bound, tools)
    return Descent(await _ask(tiers, pool, tier, spend))
