"""The generated bilingual training corpus of the retail intent classifier.

Templates (orders_*, returns_*, service_*, acts_*, pairs_*, scope_*, families_*, voices_*, mixed_zh) × slot values (slots) × paraphrase
layers (noise), whole messages written as customers type them (written), plus messages joined from several clauses (combine), labelled by LABELS.md. One seeded
generator and fixed iteration orders make every call, in every process, give the same
examples in the same order.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache

from domains.retail.intents import combine
from domains.retail.intents.acts_en import ACTS_EN
from domains.retail.intents.acts_zh import ACTS_ZH
from domains.retail.intents.families_en import FAMILIES_EN
from domains.retail.intents.families_zh import FAMILIES_ZH
from domains.retail.intents.group import Group
from domains.retail.intents.mixed_zh import MIXED_ZH
from domains.retail.intents.noise import paraphrase, trailing, unnamed
from domains.retail.intents.orders_en import ORDERS_EN
from domains.retail.intents.orders_zh import ORDERS_ZH
from domains.retail.intents.pairs_en import PAIRS_EN
from domains.retail.intents.pairs_zh import PAIRS_ZH
from domains.retail.intents.returns_en import RETURNS_EN
from domains.retail.intents.returns_zh import RETURNS_ZH
from domains.retail.intents.scope_en import SCOPE_EN, SMALLTALK_EN, WITHDRAW_EN
from domains.retail.intents.scope_zh import SCOPE_ZH, SMALLTALK_ZH, WITHDRAW_ZH
from domains.retail.intents.service_en import SERVICE_EN
from domains.retail.intents.service_zh import SERVICE_ZH
from domains.retail.intents.slots import fill
from domains.retail.intents.voices_en import VOICES_EN
from domains.retail.intents.voices_zh import VOICES_ZH
from domains.retail.intents.withdrawals import (
    ACTIONS_EN,
    ACTIONS_ZH,
    FRAMES_EN,
    FRAMES_ZH,
    WITHDRAWALS_EN,
    WITHDRAWALS_ZH,
    as_pairs,
)
from domains.retail.intents.written import KIND as WRITTEN_KIND
from domains.retail.intents.written import written
from nodes.language import LANGS, Lang, lang_of

SEED = 10_2026
RENDERS = {"plain": 5}
HARD_RENDERS = 8
UNNAMED = 0.15
"""The share of later renders whose order is named without its id ("cancel it")."""
TRAILING = 0.12
"""The share of later renders whose id comes after the request ("cancel it. #W1234567")."""
"""How many times each template is filled (once as written, the rest paraphrased): the
hard classes more often than plain requests, as they are what the model must learn."""
SEVERAL = 1750
WITHDRAWN = 350
CHATTED = 600
"""Per language: messages of several requests, withdrawal + request, small talk + request."""
HARD_KINDS = (
    "question_state",
    "indirect",
    "condition",
    "withdrawal",
    "negation_plus",
    "several",
    "bulk",
    "other_customer",
    "where_order",
    "lateness",
    "return_refund",
    "refund_where",
    "smalltalk",
    "smalltalk_wrap",
    "off_topic",
    "policy",
    "all_read",
    "injection",
)
"""The classes of LABELS.md the corpus generates on purpose (an example's `kind`); the
rest are "plain" requests and "mixed" Chinese/English ones written as such."""
STANDALONE = ("bulk_modify", "out_of_scope")
"""Labels that never join another (LABELS.md)."""
ALONE_KINDS = ("injection", "withdrawal", "smalltalk", "off_topic", "all_read", WRITTEN_KIND)
"""Classes whose messages are not joined to others: they are taught on their own ("show me
all my orders" next to "cancel it" would read as a bulk change; a written message is
already a whole message)."""


@dataclass(frozen=True)
class Example:
    """One training message: its text, its sorted labels, the class of LABELS.md it was
    generated for ("plain" for an ordinary request) and its language (mixed is "zh")."""

    text: str
    intents: tuple[str, ...]
    kind: str = "plain"
    lang: Lang = "en"


@dataclass(frozen=True)
class Templates:
    """One language's templates: single-clause groups, withdrawals and small-talk openers."""

    lang: Lang
    groups: tuple[Group, ...]
    withdrawals: tuple[tuple[str, str], ...]
    openers: tuple[str, ...]

    def requests(self) -> tuple[Group, ...]:
        """Groups of one intent that can share a message with another request."""
        return tuple(
            g
            for g in self.groups
            if len(g.intents) == 1 and g.intents[0] not in STANDALONE and g.kind not in ALONE_KINDS
        )


TEMPLATES: dict[Lang, Templates] = {
    "en": Templates(
        "en",
        ORDERS_EN
        + RETURNS_EN
        + SERVICE_EN
        + ACTS_EN
        + PAIRS_EN
        + SCOPE_EN
        + FAMILIES_EN
        + VOICES_EN
        + (WITHDRAWALS_EN,),
        WITHDRAW_EN + as_pairs(FRAMES_EN, ACTIONS_EN),
        SMALLTALK_EN,
    ),
    "zh": Templates(
        "zh",
        ORDERS_ZH
        + RETURNS_ZH
        + SERVICE_ZH
        + ACTS_ZH
        + PAIRS_ZH
        + MIXED_ZH
        + SCOPE_ZH
        + FAMILIES_ZH
        + VOICES_ZH
        + (WITHDRAWALS_ZH,),
        WITHDRAW_ZH + as_pairs(FRAMES_ZH, ACTIONS_ZH),
        SMALLTALK_ZH,
    ),
}


@cache
def training_corpus() -> tuple[Example, ...]:
    """Every training example, de-duplicated by text, in generation order."""
    rng = random.Random(SEED)
    seen: dict[str, Example] = {}
    for lang in LANGS:
        # The written messages are read from their files only here, when a reader is
        # trained: a request reads the templates' words (`reader.known_words`), never them.
        templates = TEMPLATES[lang]
        taught = replace(templates, groups=templates.groups + written()[lang])
        for example in generated(taught, rng):
            earlier = seen.setdefault(example.text, example)
            if earlier.intents != example.intents:
                raise ValueError(
                    f"corpus text {example.text!r} is labelled both {earlier.intents} and "
                    f"{example.intents}; reword one of its templates"
                )
    return tuple(seen.values())


def corpus_digest() -> str:
    """The sha256 of every example's text and labels: the version a model trained on the
    corpus is cached under (kinds are bookkeeping and do not change it)."""
    rows = [(example.text, example.intents) for example in training_corpus()]
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()


def generated(templates: Templates, rng: random.Random) -> Iterator[Example]:
    """One language's examples: every template filled, then the joined messages."""
    lang = templates.lang
    for group in templates.groups:
        for template in group.texts:
            for render in range(group.renders or RENDERS.get(group.kind, HARD_RENDERS)):
                named = template
                if render:
                    roll = rng.random()
                    if roll < UNNAMED:
                        named = unnamed(template, lang, rng)
                    elif roll < UNNAMED + TRAILING:
                        named = trailing(template, lang, rng)
                text = fill(named, lang, rng)
                if render:
                    text = paraphrase(text, lang, group.commands, rng)
                yield example(text, group.intents, group.kind)
    requests = templates.requests()
    makers: tuple[tuple[str, int, Callable[[], combine.Clause]], ...] = (
        ("several", SEVERAL, lambda: combine.several(requests, lang, rng)),
        (
            "negation_plus",
            WITHDRAWN,
            lambda: combine.withdrawn(templates.withdrawals, requests, lang, rng),
        ),
        (
            "smalltalk_wrap",
            CHATTED,
            lambda: combine.chatted(templates.openers, requests, lang, rng),
        ),
    )
    for kind, count, make in makers:
        for _ in range(count):
            text, intents = make()
            yield example(paraphrase(text, lang, False, rng), intents, kind)


def example(text: str, intents: Sequence[str], kind: str) -> Example:
    """An example with its whitespace tidied and its language read from its text."""
    tidy = " ".join(text.split())
    return Example(tidy, tuple(sorted(intents)), kind, lang_of(tidy))
