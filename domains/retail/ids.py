"""How retail's identifiers and addresses are written: read by the slot rules,
and masked before the learned reader sees a message."""

from __future__ import annotations

import re

ORDER_ID = re.compile(r"(?<![A-Za-z0-9])#?([Ww]\d{7})(?!\d)")
PAYMENT_ID = re.compile(r"\b((?:gift_card|credit_card|paypal)_\d+)\b")
# "to 12 Oak St, Austin, TX 78701" or "改成 12 Oak St, Austin, TX 78701".
ADDRESS = re.compile(
    r"(?:\b(?:to|at)\s+|(?:成|为|到|是)[:\s]*)"
    r"(\d+\s+[A-Za-z][\w .'-]*?(?:,\s*[\w .'-]+){1,4}?\s*\d{5})\b"
)
