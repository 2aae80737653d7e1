"""Masking personal data in skill results: e-mail addresses, phone and card numbers.

Which copies of a result are masked is decided by the skill's
`privacy_level` (documented in `skills/contract.py`); this module only knows
how. Masks keep enough to recognise a value (`j***@example.com`), not enough
to use it.
"""

from __future__ import annotations

from typing import Any

from skills.contract import PrivacyLevel
from skills.pii import mask_pii

MASKED_IN_AUDIT: frozenset[PrivacyLevel] = frozenset({"internal", "customer", "sensitive"})
MASKED_IN_RESULT: frozenset[PrivacyLevel] = frozenset({"sensitive"})


def mask_value(value: Any) -> Any:
    """A copy of a JSON-shaped value with every string masked (keys are kept)."""
    if isinstance(value, str):
        return mask_pii(value)
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
