"""Masking personal data in skill results: e-mail addresses, phone and card numbers.

Which copies of a result are masked is decided by the skill's
`privacy_level` (documented in `skills/contract.py`); this module only knows
how. Masks keep enough to recognise a value (`j***@example.com`), not enough
to use it.
"""

from __future__ import annotations

import re
from typing import Any

from skills.contract import PrivacyLevel

EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
PHONE = re.compile(r"(?<![\w])(?:\+\d{1,3}[ -]?)?\(?\d{3}\)?[ -]\d{3}[ -]\d{4}(?!\d)")
CN_MOBILE = re.compile(r"(?<!\d)(?:\+?86[ -]?)?1[3-9]\d{9}(?!\d)")
CARD = re.compile(r"(?<!\d)\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}(?!\d)")

MASKED_IN_AUDIT: frozenset[PrivacyLevel] = frozenset({"internal", "customer", "sensitive"})
MASKED_IN_RESULT: frozenset[PrivacyLevel] = frozenset({"sensitive"})


def mask_text(text: str) -> str:
    """The text with e-mail addresses, card and phone numbers masked."""
    text = EMAIL.sub(lambda m: m.group(0)[0] + "***@" + m.group(0).split("@")[1], text)
    text = CARD.sub("[card]", text)
    text = CN_MOBILE.sub("[phone]", text)
    return PHONE.sub("[phone]", text)


def mask_value(value: Any) -> Any:
    """A copy of a JSON-shaped value with every string masked (keys are kept)."""
    if isinstance(value, str):
        return mask_text(value)
    if isinstance(value, dict):
        return {key: mask_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [mask_value(item) for item in value]
    return value


def audit_copy(level: PrivacyLevel, payload: Any) -> Any:
    """The result as the audit trail keeps it."""
    return mask_value(payload) if level in MASKED_IN_AUDIT else payload


def disclosed(level: PrivacyLevel, payload: Any) -> Any:
    """The result as the caller (state, answers, prompts) receives it."""
    return mask_value(payload) if level in MASKED_IN_RESULT else payload
