"""How retail's identifiers and addresses are written: read by the slot rules,
and masked before the learned reader sees a message."""

from __future__ import annotations

import re

ORDER_ID = re.compile(r"(?<![A-Za-z0-9])#?([Ww]\d{7})(?!\d)")
PAYMENT_ID = re.compile(r"\b((?:gift_card|credit_card|paypal)_\d+)\b")
ADDRESS_SHAPE = r"(?<!\d)\d+\s+[A-Za-z][\w .'-]*?(?:,(?>(?:\s*[^\S ])?)[\w .'-]+){1,4}?\s*+\d{5}\b"
"""A US postal address as written: "12 Oak St, Apt 4, Austin, TX 78701"."""
# A space after a comma is left to the part that follows (atomically), and the whitespace
# before the zip is taken possessively: written as `,\s*[\w .'-]+`, every run of spaces could
# split two ways in each part, and "1 a" + ("," + 26 spaces) * 4 took a second to refuse.
# "to 12 Oak St, Austin, TX 78701", "改成 12 Oak St, Austin, TX 78701", or after a colon
# ("change my address: 12 Oak St, …", as a request goes on with the address it was asked).
ADDRESS = re.compile(rf"(?:\b(?:to|at)\s+|(?:成|为|到|是)[:\s]*|[:：]\s*)({ADDRESS_SHAPE})")
