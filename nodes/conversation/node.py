"""The compress node: keep a thread's history within its context budget.

It runs after `respond`, at the end of a turn whose history is over budget
(`needs_compression` routes there; any other turn ends without the extra
step and its checkpoint) — so after `remember` has stored the stable facts
of every turn it may compress away. When the
thread's messages hold more tokens than the budget allows, the messages
before the last `KEEP_TURNS` turns are summarised in groups (map) and merged
with the previous summary (reduce); they leave the state, and the summary is
kept in the `summary` channel and as the first message.
"""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime

from nodes.context import SupportContext
from nodes.contracts import Tier
from nodes.conversation.extractive import digest, merged_summary
from nodes.conversation.history import History, compressed, groups, split_history
from nodes.conversation.model_summary import NODE, Summariser, allowed_facts
from nodes.conversation.record import record_of
from nodes.models.call import call_site
from nodes.state import StateUpdate, SupportState


def needs_compression(
    state: SupportState, runtime: Runtime[SupportContext]
) -> Literal["compress", "__end__"]:
    """Route a finished turn to `compress` only when it has something to compress."""
    return "compress" if _older_over_budget(state, runtime.context) else "__end__"


def _older_over_budget(state: SupportState, ctx: SupportContext) -> History | None:
    """The history to compress: over budget, with turns older than the kept ones."""
    messages = state.get("messages") or []
    if not ctx.context_budget.exceeded_by(messages):
        return None
    history = split_history(messages)
    # Only the turns kept verbatim are left: nothing may go.
    return history if history.older else None


async def compress(state: SupportState, runtime: Runtime[SupportContext]) -> StateUpdate:
    """Compress the older turns when the history is over budget; else change nothing."""
    ctx = runtime.context
    history = _older_over_budget(state, ctx)
    if history is None:
        return {}
    summary, tier = await summarise(ctx, state, history)
    return {
        "summary": summary,
        "messages": compressed(history, summary),
        "trace": [f"compress[{tier}]: {len(history.older)} messages -> {len(summary)} chars"],
    }


async def summarise(ctx: SupportContext, state: SupportState, history: History) -> tuple[str, Tier]:
    """The new summary of `history.older` after the thread's previous one, and its tier."""
    previous = state.get("summary") or None
    parts = groups(history.older)
    digests = [digest(group) for group in parts]
    tiers = ctx.models
    if tiers is not None and tiers.small is not None:
        records = [r for m in history.older if (r := record_of(m)) is not None]
        facts = ctx.domain.answers.facts
        summariser = Summariser(
            tiers=tiers,
            pool=ctx.pool,
            site=call_site(NODE, dict(state)),
            facts=facts,
            allowed=allowed_facts(records, previous, facts),
        )
        found = await summariser.summary(parts, digests, previous)
        if found is not None:
            return found, "small"
    return merged_summary(previous, digests), "rules"
