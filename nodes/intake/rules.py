"""The rules tier of intake: deterministic intents, slots, masking, injection screen."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from nodes.contracts import Intent, Slots, Understanding
from nodes.intake.vocabulary import (
    ACCOUNT_WORDS,
    BULK_SCOPE,
    BULK_WRITE_VERBS,
    CANCEL_REASONS,
    INJECTION_PATTERNS,
    INTENT_PATTERNS,
    PAYMENT_WORDS,
    POLICY_MASKED_INTENTS,
    POLICY_PHRASES,
    REFUND_QUESTION,
    WEAK_ORDER_STATUS,
)

ORDER_ID = re.compile(r"(?<![A-Za-z0-9])#?([Ww]\d{7})(?!\d)")
EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
PAYMENT_ID = re.compile(r"\b((?:gift_card|credit_card|paypal)_\d+)\b")
# "to 12 Oak St, Austin, TX 78701" or "改成 12 Oak St, Austin, TX 78701".
ADDRESS = re.compile(
    r"(?:\b(?:to|at)\s+|(?:成|为|到|是)[:\s]*)"
    r"(\d+\s+[A-Za-z][\w .'-]*?(?:,\s*[\w .'-]+){1,4}?\s*\d{5})\b"
)
CJK = re.compile(r"[\u4e00-\u9fff]")
PHONE = re.compile(r"(?<![\w])(?:\+\d{1,3}[ -]?)?\(?\d{3}\)?[ -]\d{3}[ -]\d{4}(?!\d)")
CN_MOBILE = re.compile(r"(?<!\d)(?:\+?86[ -]?)?1[3-9]\d{9}(?!\d)")
CARD = re.compile(r"(?<!\d)\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}(?!\d)")

# Ordered so that more specific intents are not swallowed by general ones.
_PRIORITY: tuple[Intent, ...] = (
    "bulk_modify", "human_handoff", "cancel_order", "exchange_items", "return_items",
    "modify_order", "update_account", "refund_status", "delay_complaint", "track_shipment",
    "order_status", "notify", "policy_question", "product_info",
)  # fmt: skip
_FULL_WIDTH = str.maketrans({"＃": "#", "，": ",", "。": ".", "？": "?", "！": "!", "：": ":"})


def understand(text: str, product_names: Iterable[str] = ()) -> Understanding:
    """Read one request with rules only. Never raises on odd input."""
    normalised = normalise(text)
    lowered = normalised.lower()
    names = tuple(product_names)
    has_items = any(n.lower() in lowered for n in names)
    intents = classify(lowered, has_orders=bool(ORDER_ID.search(normalised)), has_items=has_items)
    return Understanding(
        text=normalised,
        masked_text=mask_pii(normalised),
        lang="zh" if CJK.search(normalised) else "en",
        intents=intents,
        slots=extract_slots(normalised, intents, names),
        injection=screen_injection(lowered),
    )


def normalise(text: str) -> str:
    """Collapse whitespace and full-width punctuation that confuse the patterns."""
    return " ".join(text.translate(_FULL_WIDTH).split())


def classify(
    lowered: str, *, has_orders: bool = False, has_items: bool = False
) -> tuple[Intent, ...]:
    """The intents of lower-cased text, in priority order; never empty."""
    actions = _blank(POLICY_PHRASES, lowered)
    found = [
        i
        for i in _PRIORITY
        if _any_match(INTENT_PATTERNS[i], actions if i in POLICY_MASKED_INTENTS else lowered)
    ]
    if "bulk_modify" in found or _bulk_write(lowered):
        # Refused as a whole before planning: the other intents would only
        # describe what the bulk request wanted done.
        return ("bulk_modify",)
    found = _resolve_overlaps(found, lowered, has_orders)
    if set(found) <= {"notify"} and (has_orders or _any_match(WEAK_ORDER_STATUS, lowered)):
        found.insert(0, "order_status")
    if not found and has_items:
        found = ["product_info"]
    return tuple(found) if found else ("out_of_scope",)


def screen_injection(lowered: str) -> bool:
    """True when the text tries to instruct the assistant instead of asking it."""
    return _any_match(INJECTION_PATTERNS, lowered)


def mask_pii(text: str) -> str:
    """Mask emails, card numbers and phone numbers for logs and model prompts."""
    text = EMAIL.sub(lambda m: m.group(0)[0] + "***@" + m.group(0).split("@")[1], text)
    text = CARD.sub("[card]", text)
    text = CN_MOBILE.sub("[phone]", text)
    return PHONE.sub("[phone]", text)


def extract_slots(text: str, intents: Iterable[str], product_names: Iterable[str]) -> Slots:
    """Order ids, e-mails, items, address, reason and payment method of the text."""
    lowered = text.lower()
    intents = set(intents)
    address = ADDRESS.search(text)
    wants_address = bool({"update_account", "modify_order"} & intents)
    payment = PAYMENT_ID.search(text)
    return Slots(
        order_ids=tuple(dict.fromkeys("#" + m.upper() for m in ORDER_ID.findall(text))),
        emails=tuple(dict.fromkeys(EMAIL.findall(text))),
        item_names=tuple(n for n in product_names if n.lower() in lowered),
        address=address.group(1).strip() if address and wants_address else None,
        reason=_first_key(CANCEL_REASONS, lowered),
        payment_method=payment.group(1) if payment else _first_key(PAYMENT_WORDS, lowered),
    )


def _resolve_overlaps(found: list[Intent], lowered: str, has_orders: bool) -> list[Intent]:
    drop: set[str] = set()
    # "refund" inside a return/cancel request is part of that request.
    if {"return_items", "cancel_order"} & set(found) and not _any_match(REFUND_QUESTION, lowered):
        drop.add("refund_status")
    # An address change is the named order's, else the account's.
    if "modify_order" in found and "update_account" in found:
        on_account = _any_match(ACCOUNT_WORDS, lowered) or not has_orders
        drop.add("modify_order" if on_account else "update_account")
    # A delay complaint already tracks the shipment.
    if "delay_complaint" in found:
        drop.add("track_shipment")
    return [i for i in found if i not in drop]


def _bulk_write(lowered: str) -> bool:
    return _any_match(BULK_SCOPE, lowered) and _any_match(BULK_WRITE_VERBS, lowered)


def _first_key(table: dict[str, tuple[str, ...]], lowered: str) -> str | None:
    return next((key for key, patterns in table.items() if _any_match(patterns, lowered)), None)


def _blank(patterns: Iterable[str], lowered: str) -> str:
    for pattern in patterns:
        lowered = _compiled(pattern).sub(" ", lowered)
    return lowered


def _any_match(patterns: Iterable[str], lowered: str) -> bool:
    return any(_compiled(p).search(lowered) for p in patterns)


@lru_cache(maxsize=1024)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)
