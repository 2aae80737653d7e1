"""Fill `bind:` markers in task args from the results of its dependencies.

Results are untrusted tool output: values are only ever picked from known
fields (an order's own items and payment, the account's own e-mail), never
interpreted as instructions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from nodes.errors import BindingError, PreconditionFailed
from nodes.quoting import as_document, quote_document

_ADDRESS = re.compile(
    r"^\s*(?P<address1>[^,]+?)\s*,\s*(?:(?P<address2>[^,]+?)\s*,\s*)?(?P<city>[^,]+?)\s*,"
    r"\s*(?P<state>[A-Za-z]{2})\s+(?P<zip>\d{5})\s*(?:,\s*(?P<country>[A-Za-z ]+))?\s*$"
)


def bind_args(args: Mapping[str, Any], results: Mapping[str, Any]) -> dict[str, Any]:
    """Resolve every `bind:<name>` value and split free-text addresses."""
    docs = [as_document(v) for v in results.values()]
    bound: dict[str, Any] = {}
    for key, value in args.items():
        if isinstance(value, str) and value.startswith("bind:"):
            bound[key] = _resolve(value.removeprefix("bind:"), docs, results)
        elif key == "address" and isinstance(value, str):
            bound.update(parse_address(value))
        else:
            bound[key] = value
    return bound


def parse_address(text: str) -> dict[str, str]:
    """'12 Oak St, Apt 4, Austin, TX 78701[, USA]' -> tau2 address fields."""
    match = _ADDRESS.match(text)
    if not match:
        raise BindingError("address", "write the address as 'street, [unit,] city, ST 12345'")
    parts = match.groupdict()
    return {
        "address1": parts["address1"],
        "address2": parts["address2"] or "",
        "city": parts["city"],
        "state": parts["state"].upper(),
        "country": (parts["country"] or "USA").strip(),
        "zip": parts["zip"],
    }


def _resolve(name: str, docs: list[Any], results: Mapping[str, Any]) -> Any:
    order = next((d for d in docs if isinstance(d, dict) and "order_id" in d), None)
    user = next((d for d in docs if isinstance(d, dict) and "payment_methods" in d), None)
    if name == "order_items" and order:
        return [item["item_id"] for item in order.get("items", [])]
    if name == "order_payment" and order and order.get("payment_history"):
        return order["payment_history"][0]["payment_method_id"]
    if name == "account_email" and user:
        return user["email"]
    if name.startswith("user_payment:") and user:
        kind = name.split(":", 1)[1]
        for method_id, method in user["payment_methods"].items():
            if method.get("source") == kind:
                return method_id
        raise BindingError(
            name, f"no {kind.replace('_', ' ')} on file; name a payment method on your account"
        )
    if name == "summary":
        return summarize_results(results)
    raise BindingError(name, "the step it depends on returned nothing usable")


# Which order statuses each write accepts; checked against the order just read
# so an impossible request fails plainly instead of asking a human first.
PRECONDITIONS: dict[str, tuple[str, ...]] = {
    "cancel_pending_order_v1": ("pending",),
    "modify_pending_order_items_v1": ("pending",),
    "modify_pending_order_address_v1": ("pending", "pending (item modified)"),
    "modify_pending_order_payment_v1": ("pending", "pending (item modified)"),
    "return_delivered_order_items_v1": ("delivered",),
    "exchange_delivered_order_items_v1": ("delivered",),
}


def check_preconditions(skill: str, args: Mapping[str, Any], results: Mapping[str, Any]) -> None:
    """Raise `PreconditionFailed` when the order read earlier is in the wrong state."""
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


def summarize_results(results: Mapping[str, Any]) -> str:
    docs = {task_id: as_document(payload) for task_id, payload in results.items()}
    own = {str(d["order_id"]) for d in docs.values() if isinstance(d, dict) and "order_id" in d}
    lines = []
    for task_id, raw in docs.items():
        doc = quote_document(raw, own_ids=own)  # data text is quoted, never obeyed
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
