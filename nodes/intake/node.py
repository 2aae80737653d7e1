"""The intake node: understand the request and refuse what must never be planned."""

from __future__ import annotations

from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from checkpoints.errors import ConfigurationError
from nodes.context import SupportContext
from nodes.contracts import Understanding
from nodes.domain import OUT_OF_SCOPE, Domain, IntentSpec
from nodes.handoff import new_audit_id
from nodes.identity import identity_of
from nodes.inputs import input_problem
from nodes.intake.customer import resolve_customer
from nodes.intake.rules import understand
from nodes.models.ladder import model_understanding
from nodes.state import SupportState

REFUSE_REUSED = (
    "This conversation has already handled a request; please start a new thread for a new one."
)
# What a domain does not word itself (`DomainAnswers.refusals`) is said this way.
DEFAULT_REFUSALS = {
    "no_customer": "I can't find your customer account, so I can't look anything up.",
    "foreign": "I can't find {ids} among your records, so I can't act on it.",
    OUT_OF_SCOPE: "That request is outside what I can do.",
}


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
    rules = understand(state.get("text") or "", ctx.domain.understanding, ctx.lexicon)
    understanding = await model_understanding(ctx, state, rules)
    return {
        "audit_id": new_audit_id(),
        "user_id": customer.user_id,
        "understanding": understanding.model_dump(mode="json"),
        "refusal": await _refusal(ctx, customer.user_id, understanding),
        "handoff": any(_spec(ctx.domain, i).handoff for i in understanding.intents),
        "trace": [_trace(ctx.domain, understanding)],
    }


def refuse_bad_input(state: SupportState) -> dict[str, Any] | None:
    """Served input reaches the graph unchecked: refuse what the API would reject.

    No audit id is taken, so the thread still serves a corrected request.
    """
    problem = input_problem(state)
    if problem is None:
        return None
    return {"refusal": f"I can't read that request: {problem}.", "trace": ["intake: bad input"]}


def refusal_text(domain: Domain, kind: str) -> str:
    """The domain's wording of a harness refusal, else the harness's own."""
    return domain.answers.refusals.get(kind) or DEFAULT_REFUSALS[kind]


async def _refusal(ctx: SupportContext, user_id: str, u: Understanding) -> str | None:
    # The API checks this too; the graph checks again for callers that reach
    # it directly (LangGraph Studio, the SDK).
    domain = ctx.domain
    if not await domain.records.customer_exists(ctx.pool, user_id):
        return refusal_text(domain, "no_customer")
    refused = next((s.refusal for i in u.intents if (s := _spec(domain, i)).refusal), None)
    if refused:
        return refused
    foreign = await domain.records.foreign(ctx.pool, user_id, u)
    if foreign:
        # Same words whether the record exists or not: nothing leaks.
        return refusal_text(domain, "foreign").format(ids=", ".join(foreign))
    if u.intents == (OUT_OF_SCOPE,):
        return refusal_text(domain, OUT_OF_SCOPE)
    return None


def _spec(domain: Domain, intent: str) -> IntentSpec:
    spec = domain.intent(intent)
    if spec is None:
        # Intake only ever reads intents of the vocabulary (rules and grounding check it).
        raise ConfigurationError(f"intent {intent!r} is not in domain {domain.name!r}")
    return spec


def _trace(domain: Domain, u: Understanding) -> str:
    owned = [v for s in domain.understanding.slots if s.owned for v in u.slot(s.name)]
    return f"intake[{u.tier}]: intents={list(u.intents)} owned={owned}" + (
        " injection-screened" if u.injection else ""
    )
