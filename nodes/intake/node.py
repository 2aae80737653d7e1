"""The intake node: understand the request and refuse what must never be planned."""

from __future__ import annotations

from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime

from checkpoints.errors import ConfigurationError
from nodes.checked_customer import customer_exists
from nodes.context import SupportContext
from nodes.contracts import Understanding
from nodes.conversation.questions import INTENT
from nodes.conversation.reading import read_turn
from nodes.conversation.small_talk import small_talk_reply
from nodes.domain import OUT_OF_SCOPE, Domain, IntentSpec
from nodes.identity import identity_of
from nodes.inputs import input_problem
from nodes.intake.customer import REFUSE_OTHER_CUSTOMER, Customer, resolve_customer
from nodes.language import Bilingual, Lang, lang_of, say
from nodes.models.budget_notice import budget_spent_text, notify_budget_spent
from nodes.models.call import call_site
from nodes.models.ladder import NODE as INTAKE_NODE
from nodes.models.ladder import model_reading
from nodes.state import QuestionData, SupportState, stored

# What a domain does not word itself (`DomainAnswers.refusals`) is said this way.
DEFAULT_REFUSALS: dict[str, Bilingual] = {
    "no_customer": Bilingual("I can't find your customer account, so I can't look anything up.",
                             "我找不到您的客户账户，所以没办法为您查询。"),
    "foreign": Bilingual("I can't find {ids} among your records, so I can't act on it.",
                         "我在您的记录中找不到 {ids}，所以无法办理。"),
    OUT_OF_SCOPE: Bilingual("That request is outside what I can do.", "这个请求超出了我能办理的范围。"),
}  # fmt: skip


async def intake(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    ctx = runtime.context
    if refused := refuse_bad_input(state):
        return {**refused, "user_id": state["customer"]} if state.get("customer") else refused
    resolved = resolve_customer(identity_of(get_config()), state.get("user_id"))
    customer = bound_customer(state, resolved)
    if customer.user_id is None:
        why = "another customer's thread" if resolved.user_id else "no customer identity"
        refusal = customer.refusal.say(lang_of(state.get("text"))) if customer.refusal else None
        return {
            # A refused turn leaves the thread its own customer, whoever asked.
            "user_id": state.get("customer") or "",
            "refusal": refusal,
            "trace": [f"intake: {why}; refused"],
        }
    state = {**state, "user_id": customer.user_id}
    reading = await read_turn(ctx, state, customer.user_id)
    settled: dict[str, Any] = {
        "user_id": customer.user_id,
        "customer": customer.user_id,
        "question": None,  # read: the question is answered (or asked again below)
        "followup": " ".join(reading.notes) or None,
        "asking": stored(reading.asking, QuestionData) if reading.asking else None,
    }
    if reading.rules is None:
        return {**settled, "trace": [*reading.trace, "intake: the reply settled the question"]}
    resolved_state: SupportState = {**state, "text": reading.rules.text}
    understanding, over_budget = await model_reading(ctx, resolved_state, reading.rules)
    # Asked what the customer wants done, the turn is a question, not "out of scope".
    asks_what = reading.asking is not None and reading.asking.slot == INTENT
    refusal = await _refusal(ctx, customer.user_id, understanding, asks_what=asks_what)
    if understanding.intents == (OUT_OF_SCOPE,) and refusal is not None:
        polite = small_talk_reply(understanding.text, understanding.lang)
        if polite or settled["followup"]:
            # "hello" is answered; "actually, don't": the reply's own answer says what happened.
            refusal = None
            settled["followup"] = " ".join(filter(None, [settled["followup"], polite]))
    if over_budget and refusal is not None and understanding.intents == (OUT_OF_SCOPE,):
        # The rules could not read it and a spent budget kept the models from trying.
        site = call_site(INTAKE_NODE, dict(resolved_state))
        await notify_budget_spent(
            ctx.pool, ctx.operator_notices, site, over_budget, customer.user_id
        )
        refusal = budget_spent_text(understanding.lang)
    return {
        **settled,
        "understanding": understanding.model_dump(mode="json"),
        "refusal": refusal,
        # A refusal is answered as such; the question it would have asked is moot.
        "asking": None if refusal else settled["asking"],
        "handoff": any(_spec(ctx.domain, i).handoff for i in understanding.intents),
        "trace": [*reading.trace, _trace(ctx.domain, understanding)],
    }


def bound_customer(state: SupportState, customer: Customer) -> Customer:
    """`customer`, unless the thread belongs to another: a thread is one customer's
    conversation, bound by its first turn."""
    bound = state.get("customer")
    if bound and customer.user_id not in (None, bound):
        return Customer(None, REFUSE_OTHER_CUSTOMER)
    return customer


def refuse_bad_input(state: SupportState) -> dict[str, Any] | None:
    """Served input reaches the graph unchecked: refuse what the API would reject."""
    problem = input_problem({"text": state.get("text"), "user_id": state.get("user_id")})
    if problem is None:
        return None
    # The problem is named as the API names it, so a caller can look it up.
    lang = lang_of(state.get("text"))
    refusal = say(
        lang, f"I can't read that request: {problem}.", f"我无法读取这条请求：{problem}。"
    )
    return {"refusal": refusal, "trace": ["intake: bad input"]}


def refusal_text(domain: Domain, kind: str, lang: Lang) -> str:
    """The domain's wording of a harness refusal, else the harness's own, in `lang`."""
    return (domain.answers.refusals.get(kind) or DEFAULT_REFUSALS[kind]).say(lang)


async def _refusal(
    ctx: SupportContext, user_id: str, u: Understanding, *, asks_what: bool = False
) -> str | None:
    # The API checks this too; the graph checks again for callers that reach
    # it directly (LangGraph Studio, the SDK).
    domain = ctx.domain
    if not await customer_exists(domain, ctx.pool, user_id):
        return refusal_text(domain, "no_customer", u.lang)
    refused = next((s.refusal for i in u.intents if (s := _spec(domain, i)).refusal), None)
    if refused:
        return refused.say(u.lang)
    foreign = await domain.records.foreign(ctx.pool, user_id, u)
    if foreign:
        # Same words whether the record exists or not: nothing leaks.
        ids = say(u.lang, ", ", "、").join(foreign)
        return refusal_text(domain, "foreign", u.lang).format(ids=ids)
    if u.intents == (OUT_OF_SCOPE,) and not asks_what:
        return refusal_text(domain, OUT_OF_SCOPE, u.lang)
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
