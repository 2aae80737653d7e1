"""The intake node: understand the request and refuse what must never be planned."""

from __future__ import annotations

from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from nodes.context import SupportContext
from nodes.contracts import Understanding
from nodes.handoff import new_audit_id
from nodes.identity import identity_of
from nodes.inputs import input_problem
from nodes.intake.customer import resolve_customer
from nodes.intake.ownership import foreign_orders, user_exists
from nodes.intake.rules import understand
from nodes.models.ladder import model_understanding
from nodes.state import SupportState

REFUSE_BULK = (
    "I can't change many orders or other customers' data at once; "
    "please ask about one of your own orders at a time."
)
REFUSE_REUSED = (
    "This conversation has already handled a request; please start a new thread for a new one."
)
REFUSE_SCOPE = (
    "I can help with your orders, deliveries, returns, refunds, account and our policies. "
    "That request is outside what I can do."
)


async def intake(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    ctx = runtime.context
    if state.get("audit_id"):
        # A thread carries one request: its outcomes, grants and audit id must
        # never leak into another request (or another customer's).
        return {"refusal": REFUSE_REUSED, "trace": ["intake: thread already used; refused"]}
    if refused := refuse_bad_input(state):
        return refused
    customer = resolve_customer(identity_of(get_config()), state.get("user_id"))
    if customer.user_id is None:
        return {
            "audit_id": new_audit_id(),
            "user_id": "",
            "refusal": customer.refusal,
            "trace": ["intake: no customer identity; refused"],
        }
    state = {**state, "user_id": customer.user_id}
    rules = understand(state.get("text") or "", ctx.lexicon.get("products", ()))
    understanding = await model_understanding(ctx, state, rules)
    refusal = await _refusal(ctx, customer.user_id, understanding)
    return {
        "audit_id": new_audit_id(),
        "user_id": customer.user_id,
        "understanding": understanding.model_dump(mode="json"),
        "refusal": refusal,
        "trace": [
            f"intake[{understanding.tier}]: intents={list(understanding.intents)}"
            f" orders={list(understanding.slots.order_ids)}"
            + (" injection-screened" if understanding.injection else "")
        ],
    }


def refuse_bad_input(state: SupportState) -> dict[str, Any] | None:
    """Served input reaches the graph unchecked: refuse what the API would reject.

    No audit id is taken, so the thread still serves a corrected request.
    """
    problem = input_problem(state)
    if problem is None:
        return None
    return {"refusal": f"I can't read that request: {problem}.", "trace": ["intake: bad input"]}


async def _refusal(ctx: SupportContext, user_id: str, u: Understanding) -> str | None:
    # The API checks this too; the graph checks again for callers that reach
    # it directly (LangGraph Studio, the SDK).
    if not await user_exists(ctx.pool, user_id):
        return "I can't find your customer account, so I can't look anything up."
    if "bulk_modify" in u.intents:
        return REFUSE_BULK
    foreign = await foreign_orders(ctx.pool, user_id, u.slots.order_ids)
    if foreign:
        # Same words whether the order exists or not: nothing leaks.
        return f"I can't find {', '.join(foreign)} among your orders, so I can't act on it."
    if u.intents == ("out_of_scope",):
        return REFUSE_SCOPE
    return None
