"""Rules-tier plan templates: intents + slots -> a DAG of tasks.

Arguments that depend on earlier results (which items to return, where to
send the e-mail) are left as `bind:` markers, resolved by
`domains.retail.planning.binding` once the dependencies have succeeded, so
the plan itself stays a pure function of the request. A condition the
request puts on its change ("if it hasn't shipped yet") gates every order
write on the write's own order lookup (`Task.when`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from domains.retail.conditions import CONDITIONS, condition_on
from nodes.contracts import Condition, Plan, Task, Understanding

WHY_LATE = "why_is_my_shipment_late"
MAX_WORDS = 240
"""Characters of the request an items marker carries (`binding.NAMED_ITEMS`)."""


@dataclass
class _Builder:
    user_id: str
    understanding: Understanding
    tasks: list[Task] = field(default_factory=list)
    intent: str = ""
    """The intent whose template is adding steps."""

    def add(
        self,
        role: str,
        skill: str,
        args: Mapping[str, object],
        *deps: str,
        question: str | None = None,
        when: Condition | None = None,
    ) -> str:
        for task in self.tasks:
            # Two intents asking for the same step (tracking and a delay complaint
            # both estimate the arrival) share it.
            if (task.role, task.skill, task.args, task.depends_on, task.question, task.when) == (
                role,
                skill,
                dict(args),
                deps,
                question,
                when,
            ):
                return task.id
        task_id = f"t{len(self.tasks) + 1}"
        task = Task(
            id=task_id,
            role=role,
            skill=skill,
            args=dict(args),
            depends_on=deps,
            question=question,
            when=when,
        )
        self.tasks.append(task)
        return task_id

    def gate(self, lookup: str) -> Condition | None:
        """The request's condition on a write whose order lookup is `lookup`, if it has one."""
        name = self.understanding.first("condition")
        return condition_on(lookup, name) if name is not None and name in CONDITIONS else None

    def order_lookup(self, order_id: str) -> str:
        for task in self.tasks:
            if task.skill == "get_order_details_v1" and task.args.get("order_id") == order_id:
                return task.id
        return self.add("order_query", "get_order_details_v1", {"order_id": order_id})

    @property
    def orders(self) -> tuple[str, ...]:
        """The orders the current intent acts on: those its own clause names, else all."""
        return self.understanding.targets.get(self.intent) or self.understanding.slot("order_ids")


def rules_plan(understanding: Understanding, user_id: str) -> Plan:
    """Build the plan for every intent the rules tier understood."""
    builder = _Builder(user_id, understanding)
    for intent in understanding.intents:
        builder.intent = intent
        _TEMPLATES.get(intent, _nothing)(builder)
    if "notify" in understanding.intents:
        _notify(builder)
    return Plan(
        tasks=tuple(builder.tasks), rationale="rules templates: " + ", ".join(understanding.intents)
    )


def _nothing(builder: _Builder) -> None:
    return None


def _order_status(b: _Builder) -> None:
    if not b.orders:
        b.add("order_query", "get_user_details_v1", {"user_id": b.user_id})
    for order_id in b.orders:
        b.order_lookup(order_id)


def _track(b: _Builder) -> None:
    if not b.orders:
        b.add("order_query", "get_user_details_v1", {"user_id": b.user_id})
    for order_id in b.orders:
        b.add("logistics_analyst", "track_shipment_v1", {"order_id": order_id})
        # "Where is it" is also "when will it come": the answer states the ETA date.
        b.add("logistics_analyst", "calculate_eta_v1", {"order_id": order_id})


def _delay(b: _Builder) -> None:
    for order_id in b.orders:
        b.add("logistics_analyst", "track_shipment_v1", {"order_id": order_id})
        b.add("logistics_analyst", "calculate_eta_v1", {"order_id": order_id})
        b.add(
            "logistics_analyst",
            "detect_delay_pattern_v1",
            {"order_id": order_id},
            question=WHY_LATE,
        )
    b.add(
        "customer_support_rep",
        "search_knowledge_v1",
        {"query": "shipment delayed late delivery carrier"},
        question=WHY_LATE,
    )


def _cancel(b: _Builder) -> None:
    reason = b.understanding.first("reason") or "no longer needed"
    for order_id in b.orders:
        dep = b.order_lookup(order_id)
        b.add(
            "billing_specialist",
            "cancel_pending_order_v1",
            {"order_id": order_id, "reason": reason},
            dep,
            when=b.gate(dep),
        )


def _return(b: _Builder) -> None:
    items = named_items(b.understanding.text)
    method = b.understanding.first("payment_method")
    # "Refund it to my gift card": the destination the customer names, as far as policy
    # allows it (else the original payment); an explicit id is used as given.
    refund = "bind:order_payment"
    deps: tuple[str, ...] = ()
    if method and method[-1].isdigit():
        refund = method
    elif method:
        refund = f"bind:preferred_payment:{method}"
        deps = (b.add("order_query", "get_user_details_v1", {"user_id": b.user_id}),)
    for order_id in b.orders:
        dep = b.order_lookup(order_id)
        args = {"order_id": order_id, "item_ids": items, "payment_method_id": refund}
        b.add(
            "billing_specialist",
            "return_delivered_order_items_v1",
            args,
            dep,
            *deps,
            when=b.gate(dep),
        )


def named_items(text: str) -> str:
    """The items marker of a return: the request's words, so the items it names ("the
    camera", "only the garden hose") are picked from the order once it is read; an
    order none of whose items it names returns them all."""
    words = " ".join(re.sub(r"[^a-z0-9' -]", " ", text.lower()).split())[:MAX_WORDS]
    return f"bind:order_items_named:{words}" if words else "bind:order_items"


def _modify(b: _Builder) -> None:
    address, method = b.understanding.first("address"), b.understanding.first("payment_method")
    for order_id in b.orders:
        dep = b.order_lookup(order_id)
        if address:
            args = {"order_id": order_id, "address": address}
            b.add(
                "billing_specialist", "modify_pending_order_address_v1", args, dep, when=b.gate(dep)
            )
        elif method:
            # An explicit id is used as given; a kind ("gift_card") is resolved
            # against the customer's own methods once they are read.
            chosen = method if method[-1].isdigit() else f"bind:user_payment:{method}"
            args = {"order_id": order_id, "payment_method_id": chosen}
            user = b.add("order_query", "get_user_details_v1", {"user_id": b.user_id})
            b.add(
                "billing_specialist",
                "modify_pending_order_payment_v1",
                args,
                dep,
                user,
                when=b.gate(dep),
            )


def _update_account(b: _Builder) -> None:
    if address := b.understanding.first("address"):
        args = {"user_id": b.user_id, "address": address}
        b.add("billing_specialist", "modify_user_address_v1", args)
    else:
        b.add("order_query", "get_user_details_v1", {"user_id": b.user_id})


def _policy(b: _Builder) -> None:
    b.add("customer_support_rep", "search_knowledge_v1", {"query": b.understanding.text})


MAX_PRODUCTS = 3
"""Products one request is told in detail; more are a catalogue question."""


def _product(b: _Builder) -> None:
    types = b.add("order_query", "list_all_product_types_v1", {})
    # A product the customer names is looked up: its variants, what is in stock, prices.
    for name in b.understanding.slot("item_names")[:MAX_PRODUCTS]:
        args = {"product_id": f"bind:product_id:{name}"}
        b.add("order_query", "get_product_details_v1", args, types)


def _exchange(b: _Builder) -> None:
    for order_id in b.orders:
        b.order_lookup(order_id)
    # Asked in the customer's language, so the policy found is the one they read.
    query = "换货政策 换货" if b.understanding.lang == "zh" else "exchange delivered items policy"
    b.add("customer_support_rep", "search_knowledge_v1", {"query": query})


def _notify(b: _Builder) -> None:
    # Without an explicit address the skill writes to the account's own
    # e-mail (medium risk); any other recipient needs an approval.
    deps = tuple(t.id for t in b.tasks)
    args: dict[str, object] = {
        "user_id": b.user_id,
        "subject": "Your request",
        "body": "bind:summary",
    }
    if recipient := b.understanding.first("emails"):
        args["recipient"] = recipient
    b.add("notifier", "send_notification_v1", args, *deps)


_TEMPLATES: dict[str, Callable[[_Builder], None]] = {
    "order_status": _order_status,
    "refund_status": _order_status,
    "track_shipment": _track,
    "delay_complaint": _delay,
    "cancel_order": _cancel,
    "return_items": _return,
    "modify_order": _modify,
    "update_account": _update_account,
    "policy_question": _policy,
    "product_info": _product,
    "exchange_items": _exchange,
}
