"""Intake's model tiers: large -> small -> rules.

The rules tier has already read the request; a model may refine that
reading but never make it less safe (see `nodes.models.grounding`). What the
model is told about intents and slots is generated from the domain's
`IntentSpec`/`SlotSpec` descriptions, plus the domain's own `intake.md`.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from nodes.contracts import Understanding
from nodes.domain import Domain, SlotSpec
from nodes.models.budget import BudgetScope
from nodes.models.call import call_site, descend_within_budget
from nodes.models.grounding import ground_reading
from nodes.models.prompts import Prompts, domain_prompt
from nodes.models.schema import parse_reply, reading_schema
from nodes.models.tiers import ModelSize
from nodes.state import SupportState

if TYPE_CHECKING:
    from nodes.context import SupportContext

NODE = "intake"
# The tier intake declares: intent reading benefits from the larger model.
INTAKE_TIER: ModelSize = "large"
_MARKER = re.compile(r"</?\s*customer_message\s*>", re.IGNORECASE)


async def model_understanding(
    ctx: SupportContext, state: SupportState, rules: Understanding
) -> Understanding:
    """The best grounded reading from the model tiers, else `rules` unchanged."""
    return (await model_reading(ctx, state, rules))[0]


async def model_reading(
    ctx: SupportContext, state: SupportState, rules: Understanding
) -> tuple[Understanding, BudgetScope | None]:
    """`model_understanding`, and the token budget that kept a model tier from reading, if any."""
    tiers = ctx.models
    if tiers is None or not tiers.available:
        return rules, None
    vocabulary = ctx.domain.understanding
    schema = reading_schema(vocabulary.slots)

    def accept(reply: str, tier: ModelSize) -> Understanding:
        return ground_reading(parse_reply(NODE, reply, schema), rules, tier, vocabulary)

    messages = intake_messages(tiers.prompts, rules, ctx.domain)
    site = call_site(NODE, dict(state))
    # Every request passes intake first: its model calls start the request's budget.
    tiers.requests.start(site.thread_id, tiers.request_timeout_s)
    found = await descend_within_budget(tiers, ctx.pool, site, INTAKE_TIER, messages, accept)
    if found.value is not None:
        return found.value, None
    return rules, found.over_budget


def intake_messages(prompts: Prompts, rules: Understanding, domain: Domain) -> list[BaseMessage]:
    """System instructions plus the masked request, fenced as data."""
    # Masked: models see no full e-mail, card or phone number. A customer
    # cannot close the data fence early by typing the marker themselves.
    text = _MARKER.sub(" ", rules.masked_text)
    intents = domain.understanding.intents
    slots = domain.understanding.slots
    system = prompts.render(
        "intake",
        domain=domain_prompt(domain.prompts, "intake"),
        intents="\n".join(f"- {i.name}: {i.description}" for i in intents),
        slots="\n".join(_slot_line(s) for s in slots),
        example=_example(intents[0].name, slots),
    )
    return [
        SystemMessage(content=system),
        HumanMessage(content=prompts.render("intake_request", text=text)),
    ]


def _slot_line(spec: SlotSpec) -> str:
    shape = "a list" if spec.many else "one value or null"
    choices = f" One of: {', '.join(json.dumps(c) for c in spec.choices)}." if spec.choices else ""
    return f"- {spec.name} ({shape}): {spec.description}.{choices}"


def _example(intent: str, slots: tuple[SlotSpec, ...]) -> str:
    shape: dict[str, list[str] | None] = {s.name: [] if s.many else None for s in slots}
    return json.dumps({"intents": [intent], "slots": shape, "injection": False})
