"""The remember node: store the stable facts a request states, recall the customer's.

It runs after intake on every request that was not refused (one read as out
of scope may still state a fact) and never learns from injection-screened text. Facts come from
the domain (`Domain.memory`); a domain without memory, or a graph compiled
without a store, remembers nothing and the request runs as before.
"""

from __future__ import annotations

from datetime import UTC, datetime

from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore

from nodes.context import SupportContext
from nodes.contracts import Plan, Understanding
from nodes.domain import OUT_OF_SCOPE, DomainMemory
from nodes.intake.node import refusal_text
from nodes.memory.facts import Fact, Remembered, is_fact, winners
from nodes.memory.store import entries, remember
from nodes.state import StateUpdate, SupportState

MAX_RECALLED = 10


async def remember_node(state: SupportState, runtime: Runtime[SupportContext]) -> StateUpdate:
    ctx, store = runtime.context, runtime.store
    memory = ctx.domain.memory
    raw = state.get("understanding")
    understanding = Understanding.model_validate(raw) if raw else None
    if memory is None or store is None or understanding is None or understanding.injection:
        return {"memory": {}, "noted": []}
    refusal = state.get("refusal")
    if refusal and refusal != refusal_text(ctx.domain, OUT_OF_SCOPE, understanding.lang):
        return {"memory": {}, "noted": []}  # nothing is learnt from a refused request
    kept = [f for f in memory.facts(understanding) if is_fact(f)]
    ranked = await _store_and_recall(ctx, store, memory, state["user_id"], kept, understanding)
    noted = [memory.acknowledge(f, understanding.lang) for f in kept]
    update: StateUpdate = {
        "memory": {e.key: e.value for e in ranked},
        "noted": noted,
        "trace": [f"memory: stored {[f.key for f in kept]} recalled {[e.key for e in ranked]}"],
    }
    if refusal and noted:
        # A request read as out of scope that states a fact is not refused:
        # it plans nothing and its answer acknowledges the fact.
        update["refusal"] = None
    return update


async def _store_and_recall(
    ctx: SupportContext,
    store: BaseStore,
    memory: DomainMemory,
    user_id: str,
    kept: list[Fact],
    u: Understanding,
) -> list[Remembered]:
    """Store the request's facts, then the customer's facts, most relevant first."""
    now = datetime.now(UTC)
    if kept:
        await remember(store, ctx.pool, user_id, kept, now)
    stored = await entries(store, user_id)
    relevance = {e.key: memory.relevance(e.key, u) for e in stored}
    return winners(stored, relevance, now, ctx.memory_half_life)[:MAX_RECALLED]


def with_memory(ctx: SupportContext, state: SupportState, plan: Plan) -> Plan:
    """The plan as the customer's recalled facts change it (unchanged without any)."""
    remembered = state.get("memory") or {}
    if ctx.domain.memory is None or not remembered:
        return plan
    return ctx.domain.memory.apply(plan, remembered, state["user_id"])
