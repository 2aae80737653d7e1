"""A group of message templates that share one labelling: the unit the corpus is written in."""

from __future__ import annotations

from dataclasses import dataclass

WRITES = frozenset(
    {
        "cancel_order",
        "modify_order",
        "return_items",
        "exchange_items",
        "update_account",
        "notify",
        "human_handoff",
    }
)
"""Intents a customer asks to have done (commands), as opposed to asked about: they pick
the connectors a clause is joined with ("and then …" vs "also, …?")."""


@dataclass(frozen=True)
class Group:
    """Templates with one label set. `kind` names the hard class the group teaches
    ("plain" for ordinary requests); `intents` is sorted; `texts` hold {slot} fields;
    `renders`, when set, is how often each template is filled (else the kind's default)."""

    kind: str
    intents: tuple[str, ...]
    texts: tuple[str, ...]
    renders: int | None = None

    @property
    def commands(self) -> bool:
        """Whether the group asks for something to be done (not a question)."""
        return any(intent in WRITES for intent in self.intents)


def lines(block: str) -> tuple[str, ...]:
    """The non-blank, stripped lines of a block: templates are written one a line."""
    return tuple(line.strip() for line in block.splitlines() if line.strip())


def group(kind: str, intents: str, block: str) -> Group:
    """A group from space-separated intent names and a block of templates."""
    return Group(kind, tuple(sorted(intents.split())), lines(block))


def pairs(block: str) -> tuple[tuple[str, str], ...]:
    """`intent | text` lines as (intent, text) pairs."""
    found = (line.split("|", 1) for line in lines(block))
    return tuple((intent.strip(), text.strip()) for intent, text in found)


def crossed(
    kind: str, intents: str, frames: tuple[str, ...], fillers: tuple[str, ...], renders: int = 2
) -> Group:
    """Every frame with every filler put for its `{x}` (slots such as {order} are left for
    `fill`): the wording of a request and the way its object is named vary apart, so the
    reader learns each rather than a few fixed sentences. Filled fewer times than a
    written template, as there are many and they differ by a phrase."""
    texts = tuple(dict.fromkeys(frame.replace("{x}", f) for f in fillers for frame in frames))
    return Group(kind, tuple(sorted(intents.split())), texts, renders)
