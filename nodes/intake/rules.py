"""The rules tier of intake: deterministic intents, slots, masking, injection screen."""

from __future__ import annotations

import re
from collections.abc import Iterable

from nodes.contracts import Intent, Slots, Understanding
from nodes.intake.vocabulary import (
    CANCEL_REASONS,
    INJECTION_PATTERNS,
    INTENT_PATTERNS,
    PAYMENT_WORDS,
    WEAK_ORDER_STATUS,
)

ORDER_ID = re.compile(r"(?<![A-Za-z0-9])#?([Ww]\d{7})(?!\d)")
EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
PAYMENT_ID = re.compile(r"\b((?:gift_card|credit_card|paypal)_\d+)\b")
ADDRESS = re.compile(r"\b(?:to|at)\s+(\d+\s+[A-Za-z][\w .'-]*?(?:,\s*[\w .'-]+){1,4}?\s*\d{5})\b")
CJK = re.compile(r"[\u4e00-\u9fff]")
PHONE = re.compile(r"(?<![\w])(?:\+\d{1,3}[ -]?)?\(?\d{3}\)?[ -]\d{3}[ -]\d{4}(?!\d)")
CARD = re.compile(r"(?<!\d)\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}(?!\d)")

# Ordered so that more specific intents are not swallowed by general ones.
_PRIORITY: tuple[Intent, ...] = (
    "bulk_modify", "human_handoff", "cancel_order", "exchange_items", "return_items",
    "modify_order", "update_account", "refund_status", "delay_complaint", "track_shipment",
    "order_status", "notify", "policy_question", "product_info",
)  # fmt: skip


def understand(text: str, product_names: Iterable[str] = ()) -> Understanding:
    """Read one request with rules only. Never raises on odd input."""
    normalised = normalise(text)
    lowered = normalised.lower()
    intents = classify(lowered)
    return Understanding(
        text=normalised,
        masked_text=mask_pii(normalised),
        lang="zh" if CJK.search(normalised) else "en",
        intents=intents,
        slots=extract_slots(normalised, intents, product_names),
        injection=screen_injection(lowered),
    )


def normalise(text: str) -> str:
    """Collapse whitespace and full-width punctuation that confuse the patterns."""
    table = str.maketrans({"＃": "#", "，": ",", "。": ".", "？": "?", "！": "!", "：": ":"})
    return " ".join(text.translate(table).split())


def classify(lowered: str) -> tuple[Intent, ...]:
    found = [i for i in _PRIORITY if _any_match(INTENT_PATTERNS[i], lowered)]
    found = _resolve_overlaps(found, lowered)
    if not found and _any_match(WEAK_ORDER_STATUS, lowered):
        found = ["order_status"]
    return tuple(found) if found else ("out_of_scope",)


def screen_injection(lowered: str) -> bool:
    return _any_match(INJECTION_PATTERNS, lowered)


def mask_pii(text: str) -> str:
    """Mask emails, card numbers and phone numbers for logs and model prompts."""
    text = EMAIL.sub(lambda m: m.group(0)[0] + "***@" + m.group(0).split("@")[1], text)
    text = CARD.sub("[card]", text)
    return PHONE.sub("[phone]", text)


def extract_slots(text: str, intents: Iterable[str], product_names: Iterable[str]) -> Slots:
    lowered = text.lower()
    order_ids = tuple(dict.fromkeys("#" + m.upper() for m in ORDER_ID.findall(text)))
    address = ADDRESS.search(text)
    reason = next(
        (name for name, pats in CANCEL_REASONS.items() if _any_match(pats, lowered)), None
    )
    payment = PAYMENT_ID.search(text)
    payment_kind = next(
        (kind for kind, pats in PAYMENT_WORDS.items() if _any_match(pats, lowered)), None
    )
    items = tuple(n for n in product_names if n.lower() in lowered)
    return Slots(
        order_ids=order_ids,
        emails=tuple(dict.fromkeys(EMAIL.findall(text))),
        item_names=items,
        address=address.group(1)
        if (address and "update_account" in intents) or (address and "modify_order" in intents)
        else None,
        reason=reason,
        payment_method=payment.group(1) if payment else payment_kind,
    )


def _resolve_overlaps(found: list[Intent], lowered: str) -> list[Intent]:
    # "refund" inside a return/cancel request is part of that request, not a
    # question about an existing refund.
    asks_about_refund = re.search(
        r"\b(?:status|where)\b.*\brefund|\brefund\b.*\b(?:status|yet)\b|退款.*(?:到|进度)", lowered
    )
    if (
        "refund_status" in found
        and {"return_items", "cancel_order"} & set(found)
        and not asks_about_refund
    ):
        found.remove("refund_status")
    # An address change on an order is not an account update unless asked.
    if "modify_order" in found and "update_account" in found and "account" not in lowered:
        found.remove("update_account")
    # A plain order status question that also tracks is two intents; a delay
    # complaint already implies tracking.
    if "delay_complaint" in found and "track_shipment" in found:
        found.remove("track_shipment")
    return found


def _any_match(patterns: Iterable[str], lowered: str) -> bool:
    for pattern in patterns:
        if CJK.search(pattern) and not pattern.startswith("\\"):
            if pattern in lowered:
                return True
        elif re.search(pattern, lowered):
            return True
    return False
