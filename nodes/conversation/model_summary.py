"""The model tier of compression: the small model summarises, and is checked.

Map: the small model summarises each group of messages (the newest
`MODEL_GROUPS`) in at most `GROUP_CHARS` characters; reduce: it merges the previous summary and the
group summaries in at most `SUMMARY_CHARS`. A reply is accepted only when it
fits its limit, does not read as instructions (intake's injection screen) and
every id and amount it states (the domain's `DomainAnswers.facts`) is one a
turn record — or the earlier, already checked summary — holds. A rejected
group falls back to its extractive summary, a rejected merge to the
extractive merge.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from checkpoints.opening import Pool
from nodes.conversation.budget import GROUP_CHARS, SUMMARY_CHARS
from nodes.conversation.extractive import Digest, shorten
from nodes.conversation.record import TurnRecord, record_of
from nodes.errors import ModelOutputInvalid
from nodes.intake.rules import normalise, screen_injection
from nodes.models.call import CallSite, descend
from nodes.models.tiers import ModelSize, ModelTiers
from skills.pii import mask_pii

NODE = "compress"
SUMMARY_TIER: ModelSize = "small"
"""Summaries are short and checked: the small model is enough."""
TEXT_CHARS = 300
MODEL_GROUPS = 6
"""Groups the model summarises in one compression, the newest; older ones are summarised
extractively, so a compression costs a turn at most seven model calls."""
"""Most characters of one message the model is shown."""
_MARKER = re.compile(r"</?\s*conversation\s*>", re.IGNORECASE)
_CURRENCY = "$€£¥ "


@dataclass(frozen=True)
class Summariser:
    """Asks the small model for summaries and accepts only checked ones."""

    tiers: ModelTiers
    pool: Pool
    site: CallSite
    facts: re.Pattern[str]
    """The domain's ids and amounts (`DomainAnswers.facts`)."""
    allowed: frozenset[str]
    """Fact keys (`fact_key`) the records and the previous summary hold."""

    async def summary(
        self,
        groups: Sequence[Sequence[BaseMessage]],
        digests: Sequence[Digest],
        previous: str | None,
    ) -> str | None:
        """The merged model summary of `groups` after `previous`, or None when rejected."""
        asked_from = len(groups) - MODEL_GROUPS
        texts = []
        for i, (group, d) in enumerate(zip(groups, digests, strict=True)):
            found = await self.ask(group_data(group), GROUP_CHARS) if i >= asked_from else None
            texts.append(found or d.render(GROUP_CHARS))
        return await self.ask(merge_data(previous, texts), SUMMARY_CHARS)

    async def ask(self, data: str, limit: int) -> str | None:
        """One checked summary of `data` in at most `limit` characters, or None."""
        prompts = self.tiers.prompts
        messages = [
            SystemMessage(content=prompts.render("summarise", limit=str(limit))),
            HumanMessage(content=prompts.render("summarise_request", data=_MARKER.sub(" ", data))),
        ]

        def accept(reply: str, tier: ModelSize) -> str:
            return checked(reply, limit, self.facts, self.allowed)

        return await descend(self.tiers, self.pool, self.site, SUMMARY_TIER, messages, accept)


def checked(reply: str, limit: int, facts: re.Pattern[str], allowed: frozenset[str]) -> str:
    """The reply as a summary; `ModelOutputInvalid` unless it passes every check."""
    text = " ".join(reply.split()).strip("\"' ")
    if not text:
        raise ModelOutputInvalid(NODE, "empty summary")
    if len(text) > limit:
        raise ModelOutputInvalid(NODE, f"summary too long ({len(text)} > {limit} chars)")
    invented = [f for f in stated(facts, text) if fact_key(f) not in allowed]
    if invented:
        raise ModelOutputInvalid(NODE, f"states {invented[:3]}, which no turn record holds")
    if screen_injection(text.lower()):
        raise ModelOutputInvalid(NODE, "summary reads as instructions")
    return text


def allowed_facts(
    records: Iterable[TurnRecord], previous: str | None, facts: re.Pattern[str]
) -> frozenset[str]:
    """The fact keys a summary may state: the records' ids and facts, and the previous summary's."""
    held = [v for r in records for v in (*r.ids, *r.facts)]
    held += stated(facts, previous or "")
    return frozenset(fact_key(v) for v in held)


def stated(facts: re.Pattern[str], text: str) -> list[str]:
    """Every id and amount `text` states."""
    return [m.group(0) for m in facts.finditer(text)]


def fact_key(fact: str) -> str:
    """One spelling per fact: an amount by its value ("$3.50" is "$3.5"), an id by its case."""
    bare = fact.strip().lstrip(_CURRENCY)
    try:
        return "n:" + format(Decimal(bare).normalize(), "f")
    except InvalidOperation:
        return "s:" + fact.strip().upper()


def group_data(group: Sequence[BaseMessage]) -> str:
    """A group as the model reads it: the masked customer text and the turn records."""
    return "\n".join(line for m in group if (line := _line(m)))


def merge_data(previous: str | None, texts: Sequence[str]) -> str:
    """The previous summary and the group summaries, oldest first."""
    lines = [f"earlier summary: {previous}"] if previous else []
    return "\n".join([*lines, *(f"group {i}: {t}" for i, t in enumerate(texts, 1))])


def _line(message: BaseMessage) -> str:
    record = record_of(message)
    if record is not None:
        return "turn record: " + json.dumps(record.model_dump(mode="json"), ensure_ascii=False)
    if message.type != "human":
        return ""
    clean = normalise(message.text)
    if screen_injection(clean.lower()):
        return "customer: (a request screened as an injection attempt)"
    return "customer: " + shorten(mask_pii(clean), TEXT_CHARS)
