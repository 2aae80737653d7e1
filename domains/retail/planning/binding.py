"""Retail `bind:` markers and argument shapes.

Results are untrusted tool output: values are only ever picked from known
fields (an order's own items and payment, the account's own payment methods), never
interpreted as instructions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from nodes.errors import BindingError, UnusableValue
from nodes.quoting import as_document, id_shapes, quote_document

MARKERS = frozenset({"order_items", "order_payment", "summary"})
_USER_PAYMENT = re.compile(r"(?:user|preferred)_payment:[a-z_]{1,30}")
_PRODUCT = re.compile(r"product_id:[^\n]{1,80}")
NAMED_ITEMS = re.compile(r"order_items_named:[a-z0-9' -]{1,240}")
"""The items of the order the request's words name (see `templates.named_items`)."""
_STATE_ZIP = re.compile(r"(?P<state>[A-Za-z]{2})\s+(?P<zip>\d{5})")
_COUNTRY = re.compile(r"[A-Za-z ]+")


def is_marker(marker: str) -> bool:
    """A marker the retail templates use (`order_items`, `user_payment:<kind>`, ...)."""
    patterns = (_USER_PAYMENT, _PRODUCT, NAMED_ITEMS)
    return marker in MARKERS or any(p.fullmatch(marker) for p in patterns)


def resolve(marker: str, results: Mapping[str, Any]) -> Any:
    """The value of `bind:<marker>` picked from dependency results."""
    docs = [as_document(v) for v in results.values()]
    order = next((d for d in docs if isinstance(d, dict) and "order_id" in d), None)
    user = next((d for d in docs if isinstance(d, dict) and "payment_methods" in d), None)
    if marker == "order_items" and order:
        return [item["item_id"] for item in order.get("items", [])]
    if NAMED_ITEMS.fullmatch(marker) and order:
        return _named_items(marker.split(":", 1)[1], order.get("items", []))
    if marker == "order_payment" and order and order.get("payment_history"):
        return order["payment_history"][0]["payment_method_id"]
    if marker.startswith("user_payment:") and user:
        return _user_payment(marker, user)
    if marker.startswith("preferred_payment:") and order and order.get("payment_history"):
        return _preferred_payment(marker.split(":", 1)[1], order, user or {})
    if _PRODUCT.fullmatch(marker):
        return _product_id(marker.split(":", 1)[1], docs)
    if marker == "summary":
        return summarize_results(results)
    raise BindingError(marker, "the step it depends on returned nothing usable")


def _named_items(words: str, items: list[dict[str, Any]]) -> list[str]:
    """The ids of the items `words` name: by their whole name ("garden hose"), else by its
    last word ("the hose", "the camera"); every item when none is named."""
    names = [str(i.get("name", "")).lower() for i in items]
    for parts in (names, [n.split()[-1] if n.split() else n for n in names]):
        named = [i["item_id"] for i, part in zip(items, parts, strict=True) if _says(words, part)]
        if named:
            return named
    return [i["item_id"] for i in items]


def _says(words: str, name: str) -> bool:
    return (
        bool(name)
        and re.search(rf"(?<![a-z0-9]){re.escape(name)}s?(?![a-z0-9])", words) is not None
    )


def _user_payment(marker: str, user: Mapping[str, Any]) -> str:
    kind = marker.split(":", 1)[1]
    for method_id, method in user["payment_methods"].items():
        if method.get("source") == kind:
            return str(method_id)
    raise UnusableValue(
        marker, f"no {kind.replace('_', ' ')} on file; name a payment method on your account"
    )


def _product_id(name: str, docs: list[Any]) -> str:
    """The id of the product type called `name` in the catalogue's list (any case)."""
    wanted = name.strip().lower()
    for doc in docs:
        if isinstance(doc, dict) and all(isinstance(v, str) for v in doc.values()):
            for product, product_id in doc.items():
                if product.lower() == wanted:
                    return str(product_id)
    raise UnusableValue(f"product_id:{name}", "we sell no product of that name")


def _preferred_payment(kind: str, order: Mapping[str, Any], user: Mapping[str, Any]) -> str:
    """The customer's remembered refund method when it is their own and policy allows
    a refund to it (a gift card, or the original payment); else the original payment."""
    original = str(order["payment_history"][0]["payment_method_id"])
    for method_id, method in (user.get("payment_methods") or {}).items():
        if method.get("source") == kind and (kind == "gift_card" or method_id == original):
            return str(method_id)
    return original


def prepare_args(skill: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """Args in the skills' shape: a free-text `address` becomes tau2 address fields."""
    prepared: dict[str, Any] = {}
    for key, value in args.items():
        if key == "address" and isinstance(value, str):
            prepared.update(parse_address(value))
        else:
            prepared[key] = value
    return prepared


def parse_address(text: str) -> dict[str, str]:
    """'12 Oak St, Apt 4, Austin, TX 78701[, USA]' -> tau2 address fields.

    Split on commas rather than matched by one pattern: with a lazy part between optional
    whitespace on both sides, a 71-character argument once took two seconds to refuse."""
    parts = [part.strip() for part in text.split(",")]
    country = "USA"
    if len(parts) > 3 and _COUNTRY.fullmatch(parts[-1]) and _STATE_ZIP.fullmatch(parts[-2]):
        country = parts.pop()
    state_zip = _STATE_ZIP.fullmatch(parts[-1])
    lines = parts[:-1]
    if not state_zip or len(lines) not in (2, 3) or not all(lines):
        raise UnusableValue("address", "write the address as 'street, [unit,] city, ST 12345'")
    return {
        "address1": lines[0],
        "address2": lines[1] if len(lines) == 3 else "",
        "city": lines[-1],
        "state": state_zip["state"].upper(),
        "country": country,
        "zip": state_zip["zip"],
    }


def summarize_results(results: Mapping[str, Any]) -> str:
    """One line per result (shipment scans, order status), data quoted, never obeyed."""
    docs = {task_id: as_document(payload) for task_id, payload in results.items()}
    own = {str(d["order_id"]) for d in docs.values() if isinstance(d, dict) and "order_id" in d}
    from domains.retail.pack import DOMAIN  # the pack imports this module

    shapes = id_shapes(DOMAIN)
    lines = []
    for task_id, raw in docs.items():
        doc = quote_document(raw, own_ids=own, shapes=shapes)
        if isinstance(doc, dict) and "shipments" in doc:
            for shipment in doc["shipments"]:
                last = (shipment.get("events") or [{}])[-1]
                lines.append(
                    f"Shipment {shipment.get('tracking_id')}: {last.get('description')}"
                    f" ({last.get('location')})"
                )
        elif isinstance(doc, dict) and "order_id" in doc:
            lines.append(f"Order {doc['order_id']}: {doc.get('status')}")
        elif doc is not None and not (isinstance(doc, dict) and "email" in doc):
            lines.append(f"{task_id}: {str(doc)[:300]}")
    return "\n".join(lines) or "Your request has been processed."
