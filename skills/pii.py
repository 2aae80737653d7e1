"""Masking personal data before it is shown: one place for the harness and its domains.

Masks keep enough to recognise a value (`j***@example.com`), not enough to use
it. Intake masks requests with `mask_pii` before logs and model prompts; the
skill chain masks results by privacy level (`skills/privacy.py`); the answer
is masked before the customer reads it.
"""

from __future__ import annotations

import re

EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
PHONE = re.compile(r"(?<![\w])(?:\+\d{1,3}[ -]?)?\(?\d{3}\)?[ -]\d{3}[ -]\d{4}(?!\d)")
CN_MOBILE = re.compile(r"(?<!\d)(?:\+?86[ -]?)?1[3-9]\d{9}(?!\d)")
CARD = re.compile(r"(?<!\d)\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}(?!\d)")


def mask_email(address: str) -> str:
    """`j***@example.com`: enough to recognise, not enough to harvest."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"


def mask_pii(text: str) -> str:
    """The text with e-mail addresses, card and phone numbers masked."""
    text = EMAIL.sub(lambda m: mask_email(m.group(0)), text)
    text = CARD.sub("[card]", text)
    text = CN_MOBILE.sub("[phone]", text)
    return PHONE.sub("[phone]", text)
