"""What the retail answer says about a succeeded step, and what its reviewer checks.

Payloads arrive quoted (`nodes.quoting`) and are read only through the
result models of `domains.retail.results`: a payload that does not fit its
model is not described, never guessed at.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from domains.retail.memory import PREFERRED
from domains.retail.results import Notification, Order, ProductTypes, User, parse
from domains.retail.sentences import delay_decision, read_sentences, stance
from domains.retail.vocabulary import PAYMENT_WORDS
from nodes.contracts import Decision, Task, TaskOutcome
from nodes.domain import Stance

FACTS = re.compile(r"#W\d{7}|\$\d+(?:\.\d{2})?|\b\d{10,12}\b")
"""Order ids, amounts and tracking ids: a draft states them only when the evidence holds them."""
CLAIMS: Mapping[str, str] = {
    "is now cancelled": "cancel_pending_order_v1",
    "return is requested": "return_delivered_order_items_v1",
    "exchange is requested": "exchange_delivered_order_items_v1",
    "notification was sent": "send_notification_v1",
    "is queued for delivery": "send_notification_v1",
}
FOREIGN: Mapping[str, str] = {"order_ids": "another order"}
REASONS: Mapping[str, str] = {
    "replanned": "the service for it is not answering, so I used the order's own record instead",
    "domain_error": "the current state of the order or account does not allow it",
}
_ORDER_ID = re.compile(r"#W\d{7}")
_DONE: Mapping[str, str] = {
    "cancel_pending_order_v1": "Order {order_id} is now cancelled; the refund goes back to the original payment.",
    "modify_pending_order_address_v1": "The shipping address of order {order_id} is updated.",
    "modify_pending_order_payment_v1": "The payment method of order {order_id} is changed.",
    "modify_pending_order_items_v1": "The items of order {order_id} are changed.",
    "modify_user_address_v1": "Your account address is updated.",
    "return_delivered_order_items_v1": "A return is requested for order {order_id}; you will receive return instructions by e-mail.",
    "exchange_delivered_order_items_v1": "An exchange is requested for order {order_id}.",
    "send_notification_v1": "A notification to {recipient} is queued for delivery.",
    "transfer_to_human_agents_v1": "I have passed your case to a human colleague.",
}  # fmt: skip
# The notification step only queues; a row found already delivered says so.
_NOTIFIED: Mapping[str, str] = {
    "sent": "A notification was sent to {recipient}.",
    "failed": "A notification to {recipient} could not be delivered.",
}
_ORDER_WRITES = frozenset(s for s, text in _DONE.items() if "{order_id}" in text)
_ORDER_READ = "get_order_details_v1"
_LISTS_OWN_ORDERS = frozenset({"get_user_details_v1", "modify_user_address_v1"})


class RetailAnswers:
    """The retail `DomainAnswers` (the pack adds its refusal texts)."""

    facts = FACTS
    claims = CLAIMS
    refusals: Mapping[str, str] = {}
    foreign = FOREIGN
    reasons = REASONS

    def describe(self, task: Task, outcome: TaskOutcome) -> list[str]:
        if outcome.skill in _DONE:
            return [_done(task, outcome)]
        payload = outcome.payload
        if outcome.skill == "list_all_product_types_v1":
            types = parse(ProductTypes, payload)
            return [f"We sell: {', '.join(sorted(types.root)[:12])}."] if types else []
        return read_sentences(outcome.skill, payload)

    def supersedes(self, write: Task, read: Task) -> bool:
        # An order read before a change on that order states its old status.
        return (
            write.skill in _ORDER_WRITES
            and read.skill == _ORDER_READ
            and read.args.get("order_id") == write.args.get("order_id")
        )

    def own_ids(self, outcome: TaskOutcome) -> tuple[str, ...]:
        if outcome.skill not in _LISTS_OWN_ORDERS:
            return ()
        user = parse(User, outcome.payload)
        return tuple(user.orders) if user else ()

    def stance(self, outcome: TaskOutcome) -> Stance | None:
        return stance(outcome.skill, outcome.payload)

    def decision(self, decision: Decision) -> str:
        return delay_decision(decision)

    def target(self, task: Task) -> str:
        order_id = task.args.get("order_id")
        ok = isinstance(order_id, str) and _ORDER_ID.fullmatch(order_id)
        return f" for order {order_id}" if ok else ""

    def binding_reason(self, task: Task) -> str | None:
        # Told from the step's own (planned) arguments, never from the error text.
        for value in task.args.values():
            kind = value.removeprefix("bind:user_payment:") if isinstance(value, str) else None
            if kind in PAYMENT_WORDS and kind != value:
                return (
                    f"there is no {kind.replace('_', ' ')} on file;"
                    " name a payment method on your account"
                )
        if "address" in task.args:
            return "please write the address as 'street, [unit,] city, ST 12345'"
        return None


def _done(task: Task, outcome: TaskOutcome) -> str:
    template = _DONE[outcome.skill]
    fields: dict[str, Any] = {"order_id": task.args.get("order_id")}
    if outcome.skill == "send_notification_v1":
        note = parse(Notification, outcome.payload)
        if note:
            fields["recipient"] = note.recipient
            template = _NOTIFIED.get(note.status, template)
    sentence = template.format_map(_Missing({k: v for k, v in fields.items() if v}))
    return sentence + preferred_refund(task, outcome)


def preferred_refund(task: Task, outcome: TaskOutcome) -> str:
    """ " The refund goes to your <method>, ..." when a remembered preference chose it."""
    planned = task.args.get("payment_method_id")
    kind = planned.removeprefix(PREFERRED) if isinstance(planned, str) else None
    order = parse(Order, outcome.payload) if kind and kind != planned else None
    used = order.return_payment_method_id if order else None
    if not kind or not used or not used.startswith(kind):
        return ""
    word = kind.replace("_", " ").replace("paypal", "PayPal")
    return f" The refund goes to your {word}, the refund method you asked us to remember."


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "your order" if key == "order_id" else "you"
