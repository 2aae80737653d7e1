"""Intake's model tiers: large -> small -> rules.

The rules tier has already read the request; a model may refine that
reading but never make it less safe (see `nodes.models.grounding`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from nodes.contracts import INTENTS, Understanding
from nodes.models.call import call_site, descend
from nodes.models.grounding import ground_reading
from nodes.models.prompts import Prompts
from nodes.models.schema import IntakeReading, parse_reply
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
    tiers = ctx.models
    if tiers is None or not tiers.available:
        return rules

    def accept(reply: str, tier: ModelSize) -> Understanding:
        return ground_reading(parse_reply(NODE, reply, IntakeReading), rules, tier)

    messages = intake_messages(tiers.prompts, rules)
    site = call_site(NODE, dict(state))
    # Every request passes intake first: its model calls start the request's budget.
    tiers.requests.start(site.thread_id, tiers.request_timeout_s)
    found = await descend(tiers, ctx.pool, site, INTAKE_TIER, messages, accept)
    return found if found is not None else rules


def intake_messages(prompts: Prompts, rules: Understanding) -> list[BaseMessage]:
    """System instructions plus the masked request, fenced as data."""
    # Masked: models see no full e-mail, card or phone number. A customer
    # cannot close the data fence early by typing the marker themselves.
    text = _MARKER.sub(" ", rules.masked_text)
    return [
        SystemMessage(content=prompts.render("intake", intents=", ".join(INTENTS))),
        HumanMessage(content=prompts.render("intake_request", text=text)),
    ]
