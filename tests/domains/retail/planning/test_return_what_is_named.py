"""A return takes the items and the refund destination the request names."""

from __future__ import annotations

import pytest

from domains.retail.pack import DOMAIN
from domains.retail.planning.binding import resolve
from nodes.contracts import Task
from nodes.intake.rules import understand

USER = "kim_ota_5555"
ORDER = {
    "order_id": "#W7654321",
    "items": [
        {"item_id": "11", "name": "Desk Lamp"},
        {"item_id": "22", "name": "Garden Hose"},
        {"item_id": "33", "name": "Action Camera"},
        {"item_id": "44", "name": "Digital Camera"},
    ],
    "payment_history": [{"payment_method_id": "paypal_9"}],
}
ACCOUNT = {
    "payment_methods": {"paypal_9": {"source": "paypal"}, "gift_card_8": {"source": "gift_card"}}
}


def _return(text: str) -> Task:
    plan = DOMAIN.planning.plan(understand(text, DOMAIN.understanding, {}), USER)
    return next(t for t in plan.tasks if t.skill == "return_delivered_order_items_v1")


def _items(text: str) -> list[str]:
    marker = str(_return(text).args["item_ids"]).removeprefix("bind:")
    assert DOMAIN.planning.is_marker(marker)
    return list(resolve(marker, {"t1": ORDER}))


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("please return the desk lamp from order #W7654321", ["11"]),
        ("I'd like to send back the hose of #W7654321, it leaks", ["22"]),
        ("return #W7654321, the cameras are faulty", ["33", "44"]),
        ("I want to return order #W7654321", ["11", "22", "33", "44"]),
        ("订单#W7654321的东西我要退货", ["11", "22", "33", "44"]),
    ],
)
def test_the_items_a_return_names_are_the_ones_returned(text: str, items: list[str]) -> None:
    assert _items(text) == items


def test_a_named_refund_destination_is_used_where_policy_allows() -> None:
    task = _return("return #W7654321 and refund it to my gift card")
    assert task.args["payment_method_id"] == "bind:preferred_payment:gift_card"
    assert len(task.depends_on) == 2  # the order and the account it picks the card from
    results = {"t1": ORDER, "t2": ACCOUNT}
    assert resolve("preferred_payment:gift_card", results) == "gift_card_8"
    assert _return("return #W7654321").args["payment_method_id"] == "bind:order_payment"
