"""The generic rules tier of intake: normalising, masking, the injection screen,
and the `Understanding` built from the domain's own reading of the text."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from checkpoints.errors import ConfigurationError
from nodes.contracts import Understanding
from nodes.domain import OUT_OF_SCOPE, DomainUnderstanding, Lexicon
from nodes.language import lang_of
from skills.pii import mask_pii

_FULL_WIDTH = str.maketrans({"＃": "#", "，": ",", "。": ".", "？": "?", "！": "!", "：": ":"})

# Attempts to instruct the assistant instead of asking it, in any domain.
INJECTION_PATTERNS: tuple[str, ...] = (
    r"ignore (?:all |any )?(?:previous|prior|above) (?:instructions|rules)",
    r"disregard (?:the |all )?(?:previous|prior|above|system)",
    r"you are now\b",
    r"\bsystem prompt\b",
    r"\bact as (?:an? )?(?:admin|administrator|operator|developer|root)\b",
    r"\b(?:developer|admin|god|dan) mode\b",
    r"\bpretend (?:to be|you are)\b",
    r"\boverride (?:the )?(?:rules|policy|permissions)\b",
    r"</?(?:system|tool|assistant)>",
    "忽略之前",
    "忽略以上",
    "忽略所有",
    "无视之前",
    "你现在是",
    "系统提示",
    "管理员模式",
    "忽略上面",
    "无视以上",
    "忘记之前",
    "跳过审批",
    "无需审批",
    "不需要审批",
    r"\bsystem override\b",
    r"^\s*system\s*:",
    r"\b(?:approval is not|no approval) (?:needed|required)\b",
    r"\bskip (?:the )?approval\b",
    r"\balready approved\b",
    r"\bforget (?:all |your )?(?:previous|prior) (?:instructions|rules)\b",
)


# SQL statements pasted into a request (an order id, a quote, then a delete from the
# notifications table): data for no one, and their words ("notifications", "update",
# "orders") must not read as asks.
_SQL = re.compile(
    r"\b(?:drop|truncate|alter)\s+table\b[^;]*"
    r"|\bdelete\s+from\s+\w+\s*(?:;|--|\bwhere\b|$)[^;]*"
    r"|\bupdate\s+\w+\s+set\s+\w+\s*=[^;]*"
    r"|\binsert\s+into\s+\w+\s*(?:\(|\bvalues\b|\bselect\b)[^;]*"
    r"|\bunion\s+(?:all\s+)?select\b[^;]*"
    r"|\bselect\s+pg_sleep\b[^;]*",
    re.IGNORECASE,
)


def understand(text: str, domain: DomainUnderstanding, lexicon: Lexicon) -> Understanding:
    """Read one request with rules only: the domain reads intents and slots. Never raises
    on odd input; a domain answering outside its own vocabulary is a configuration error."""
    normalised = normalise(text)
    reading = domain.read(_SQL.sub(" ", normalised), lexicon)
    return Understanding(
        text=normalised,
        masked_text=mask_pii(normalised),
        lang=lang_of(normalised),
        intents=_known_intents(domain, reading.intents),
        slots=_known_slots(domain, reading.slots),
        uncertain=_known_intents(domain, reading.uncertain) if reading.uncertain else (),
        plausible=_known_intents(domain, reading.plausible) if reading.plausible else (),
        targets=_targets(reading.targets, reading.slots),
        injection=screen_injection(normalised.lower()),
    )


def normalise(text: str) -> str:
    """Collapse whitespace and full-width punctuation that confuse the patterns."""
    return " ".join(text.translate(_FULL_WIDTH).split())


def screen_injection(lowered: str) -> bool:
    """True when the text tries to instruct the assistant instead of asking it."""
    return any_match(INJECTION_PATTERNS, lowered)


def any_match(patterns: Iterable[str], lowered: str) -> bool:
    """Whether any of the regular expressions `patterns` matches `lowered`."""
    return any(compiled(p).search(lowered) for p in patterns)


@lru_cache(maxsize=1024)
def compiled(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled once per process (vocabularies reuse the same few hundred)."""
    return re.compile(pattern)


def _targets(
    targets: Mapping[str, tuple[str, ...]], slots: dict[str, tuple[str, ...]]
) -> dict[str, tuple[str, ...]]:
    """Only ids the reading also holds as slot values: targets narrow, never add."""
    held = {v for values in slots.values() for v in values}
    return {i: kept for i, ids in targets.items() if (kept := tuple(v for v in ids if v in held))}


def _known_intents(domain: DomainUnderstanding, intents: Iterable[str]) -> tuple[str, ...]:
    names = {i.name for i in domain.intents}
    found = tuple(dict.fromkeys(intents)) or (OUT_OF_SCOPE,)
    unknown = [i for i in found if i not in names]
    if unknown:
        raise ConfigurationError(f"the domain read intent(s) outside its vocabulary: {unknown[:3]}")
    return found


def _known_slots(
    domain: DomainUnderstanding, slots: dict[str, tuple[str, ...]]
) -> dict[str, tuple[str, ...]]:
    names = {s.name for s in domain.slots}
    unknown = sorted(set(slots) - names)
    if unknown:
        raise ConfigurationError(f"the domain read slot(s) it does not declare: {unknown[:3]}")
    return {name: tuple(values) for name, values in slots.items() if values}
