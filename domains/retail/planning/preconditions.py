"""Which order statuses each retail write accepts.

Checked against the order just read, so an impossible request fails plainly
instead of asking a human first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domains.retail.sentences import status_words
from nodes.errors import PreconditionFailed
from nodes.language import Lang, say
from nodes.quoting import as_document

PRECONDITIONS: Mapping[str, tuple[str, ...]] = {
    "cancel_pending_order_v1": ("pending",),
    "modify_pending_order_items_v1": ("pending",),
    "modify_pending_order_address_v1": ("pending", "pending (item modified)"),
    "modify_pending_order_payment_v1": ("pending", "pending (item modified)"),
    "return_delivered_order_items_v1": ("delivered",),
    "exchange_delivered_order_items_v1": ("delivered",),
}


ITEM_MISSING = "not in the order"
"""Said by the precondition when a write names an item the order does not hold."""


def check_preconditions(skill: str, args: Mapping[str, Any], results: Mapping[str, Any]) -> None:
    """Raise `PreconditionFailed` when the order read earlier is in the wrong state,
    or does not hold an item the write names (so nobody is asked to confirm it)."""
    allowed = PRECONDITIONS.get(skill)
    if not allowed:
        return
    for payload in results.values():
        doc = as_document(payload)
        same_order = isinstance(doc, dict) and doc.get("order_id") == args.get("order_id")
        if same_order and doc.get("status") not in allowed:
            raise PreconditionFailed(
                f"order {doc['order_id']} is {doc.get('status')}; "
                f"this is only possible while it is {' or '.join(allowed)}"
            )
        if same_order and (missing := _missing_item(args.get("item_ids"), doc.get("items"))):
            raise PreconditionFailed(f"item {missing} is {ITEM_MISSING} {doc['order_id']}")


def _missing_item(item_ids: object, items: object) -> str | None:
    """An id `item_ids` names more often than the order's lines hold it, as the tools count."""
    if not isinstance(item_ids, list) or not isinstance(items, list):
        return None
    present = [line.get("item_id") for line in items if isinstance(line, dict)]
    return next((i for i in item_ids if item_ids.count(i) > present.count(i)), None)


def precondition_text(skill: str, lang: Lang) -> str | None:
    """'while the order is pending' for a write with a status precondition, else None."""
    allowed = PRECONDITIONS.get(skill)
    if not allowed:
        return None
    zh = "”或“".join(status_words(status, "zh") for status in allowed)
    return say(lang, f"while the order is {' or '.join(allowed)}", f"订单为“{zh}”状态")
