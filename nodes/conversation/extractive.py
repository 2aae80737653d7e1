"""The rules tier of compression: extractive summaries from turn records.

Map: each group of messages becomes a `Digest` of what was asked (the masked
customer text), what was done and with what result (the steps of the turn
records), which of the customer's ids it concerned, and how each turn ended.
Reduce: the digests add up and render, with the previous summary, into one
summary. Rendering puts what matters most first (ids, steps, outcomes), so
the length limit cuts the least useful words.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

from langchain_core.messages import BaseMessage

from nodes.conversation.budget import GROUP_CHARS, SUMMARY_CHARS
from nodes.conversation.record import TurnRecord, record_of
from nodes.intake.rules import normalise, screen_injection
from skills.pii import mask_pii

SNIPPET_CHARS = 40
PREVIOUS_CHARS = 100
"""Room the previous summary keeps in a merged one (the newer turns get the rest)."""
MIN_ROOM = 24
RECENT_IDS = 8
_VERSION = re.compile(r"_v\d+$")


@dataclass(frozen=True)
class Digest:
    """What a run of messages was about; digests add up (the reduce step)."""

    turns: tuple[int, ...] = ()
    ids: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()
    ended: tuple[str, ...] = ()
    intents: tuple[str, ...] = ()
    asked: tuple[str, ...] = ()

    def __add__(self, other: Digest) -> Digest:
        return Digest(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(self)}
        )

    def render(self, limit: int) -> str:
        """The digest in at most `limit` characters, most useful parts first."""
        parts = [
            _listed("ids", _recent(self.ids)),
            _counted("did", self.steps),
            _counted("ended", self.ended),
            _counted("about", self.intents),
            _listed("asked", self.asked, sep=" / "),
        ]
        text = f"{self._head()}: " + "; ".join(p for p in parts if p)
        return shorten(text, limit)

    def _head(self) -> str:
        if not self.turns:
            return "earlier"
        first, last = min(self.turns), max(self.turns)
        return f"turn {first}" if first == last else f"turns {first}-{last}"


def digest(messages: Iterable[BaseMessage]) -> Digest:
    """The digest of a group of messages (the map step)."""
    total = Digest()
    for message in messages:
        total += _digest_one(message)
    return total


def group_summary(messages: Sequence[BaseMessage]) -> str:
    """A group's extractive summary, at most `GROUP_CHARS` characters."""
    return digest(messages).render(GROUP_CHARS)


def merged_summary(previous: str | None, digests: Sequence[Digest]) -> str:
    """The previous summary and the new groups' digests as one summary of at most
    `SUMMARY_CHARS` characters; the newer turns take precedence."""
    total = sum(digests, Digest())
    reserve = min(len(previous), PREVIOUS_CHARS) + 3 if previous else 0
    new = total.render(SUMMARY_CHARS - reserve)
    room = SUMMARY_CHARS - len(new) - 3
    if not previous or room < MIN_ROOM:
        return new
    return f"{shorten(previous, room)} | {new}"


def shorten(text: str, limit: int) -> str:
    """`text` cut at a word boundary to at most `limit` characters (marked with "…")."""
    short = textwrap.shorten(text, limit, placeholder="…")
    return short if short != "…" else text[: max(limit - 1, 0)] + "…"


def _digest_one(message: BaseMessage) -> Digest:
    record = record_of(message)
    if record is not None:
        return _from_record(record)
    if message.type == "human":
        return Digest(asked=(_snippet(message.text),))
    return Digest()  # answers without a record, system and tool messages: nothing to extract


def _from_record(record: TurnRecord) -> Digest:
    return Digest(
        turns=(record.turn,),
        ids=record.ids,
        steps=tuple(f"{_VERSION.sub('', s.skill)} {s.status}" for s in record.steps),
        ended=(record.status,),
        intents=record.intents,
    )


def _snippet(text: str) -> str:
    clean = normalise(text)
    if screen_injection(clean.lower()):
        return "(screened)"
    return '"' + shorten(mask_pii(clean), SNIPPET_CHARS) + '"'


def _recent(ids: Iterable[str]) -> list[str]:
    # A long conversation names many records; the latest matter most.
    unique = list(dict.fromkeys(ids))
    return unique if len(unique) <= RECENT_IDS else ["…", *unique[-RECENT_IDS:]]


def _listed(label: str, values: Iterable[str], sep: str = ", ") -> str:
    items = list(values)
    return f"{label} {sep.join(items)}" if items else ""


def _counted(label: str, values: Iterable[str]) -> str:
    counts = Counter(values)
    return _listed(label, (v if n == 1 else f"{v}×{n}" for v, n in counts.items()))
