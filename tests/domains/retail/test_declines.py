"""Why a retail write was declined, and what instead: from the order's status, the
precondition's item check, or which retail tool error was raised (never its text)."""

from __future__ import annotations

from typing import Any

import pytest

from domains.retail.declines import ACTIONS, BY_MESSAGE, BY_STATUS, IN_PROGRESS
from domains.retail.pack import DOMAIN
from domains.retail.planning.preconditions import check_preconditions
from nodes.contracts import Task, TaskOutcome
from nodes.errors import PreconditionFailed
from nodes.language import CJK

ORDER = "#W1234567"
READ = Task(id="t1", role="order_query", skill="get_order_details_v1", args={"order_id": ORDER})


def _order(status: str) -> dict[str, Any]:
    line = {"name": "Lamp", "product_id": "p1", "item_id": "1001", "price": 20.0, "options": {}}
    address = {"address1": "1 Main St", "address2": "", "city": "Austin", "country": "USA",
               "state": "TX", "zip": "78701"}  # fmt: skip
    return {"order_id": ORDER, "user_id": "u1", "address": address, "items": [line],
            "status": status, "fulfillments": [],
            "payment_history": [{"transaction_type": "payment", "amount": 20.0,
                                 "payment_method_id": "paypal_1"}]}  # fmt: skip


def _told(skill: str, status: str | None, code: str, error: str, lang: str = "en") -> str | None:
    task = Task(id="t2", role="billing_specialist", skill=skill, args={"order_id": ORDER},
                depends_on=("t1",))  # fmt: skip
    outcome = TaskOutcome(task_id="t2", skill=skill, role=task.role, status="failed",
                          error_code=code, error=error)  # fmt: skip
    results = {"t1": _order(status)} if status else {}
    return DOMAIN.answers.declined(task, outcome, results, lang)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("skill", "status", "words"),
    [
        ("cancel_pending_order_v1", "processed", "once it is delivered, you can return it"),
        ("cancel_pending_order_v1", "delivered", "you can return or exchange its items instead"),
        ("cancel_pending_order_v1", "cancelled", "there is nothing left to cancel"),
        ("return_delivered_order_items_v1", "pending", "you can cancel it instead"),
        ("return_delivered_order_items_v1", "pending (item modified)", "you can cancel it"),
        ("exchange_delivered_order_items_v1", "processed", "once it is delivered"),
        ("modify_pending_order_address_v1", "delivered", "can no longer be changed"),
        ("cancel_pending_order_v1", "return requested", "already has a return in progress"),
    ],
)
def test_a_status_the_write_does_not_allow_is_told_with_the_alternative(
    skill: str, status: str, words: str
) -> None:
    told = _told(skill, status, "precondition_failed", f"order {ORDER} is {status}; ...")
    assert told is not None and ORDER in told and words in told
    assert "..." not in told  # the operator's text is never repeated


def test_every_reason_has_chinese_wording_naming_the_order() -> None:
    texts = [*BY_STATUS.values(), *IN_PROGRESS.values(), *(t for _, t in BY_MESSAGE)]
    for text in texts:
        assert CJK.search(text.zh) and not CJK.search(text.en), text
        assert "{order_id}" in text.en and "{order_id}" in text.zh, text
    zh = _told("cancel_pending_order_v1", "delivered", "precondition_failed", "x", "zh")
    assert zh == f"订单 {ORDER} 已经送达，无法取消；您可以改为申请退货或换货。"
    assert all(action in {"cancel", "modify", "return", "exchange"} for action in ACTIONS.values())


@pytest.mark.parametrize(
    ("error", "words"),
    [
        ("Non-pending order cannot be cancelled", "is no longer pending"),
        ("Some item not found", "An item you named is not in order"),
        ("Insufficient gift card balance to pay for the order", "gift card's balance"),
        ("The new payment method should be different from the current one", "already paid"),
        ("Payment method should be the original payment method", "original payment method"),
        ("New item 2002 not found or available", "is not available"),
    ],
)
def test_the_tools_own_business_errors_are_told_by_kind(error: str, words: str) -> None:
    # The order was read as pending: the status allowed the write, the tool said no.
    told = _told("modify_pending_order_items_v1", "pending", "domain_error", error)
    assert told is not None and words in told and error not in told


def test_what_the_pack_has_no_words_for_is_left_to_the_harness() -> None:
    assert _told("cancel_pending_order_v1", "pending", "domain_error", "something new") is None
    # "Payment method not found" is a record lookup (not_found), not a missing item.
    assert _told("modify_pending_order_payment_v1", None, "not_found", "Payment method not found") is None  # fmt: skip
    assert _told("send_notification_v1", None, "domain_error", "x") is None


def test_an_item_the_order_does_not_hold_is_declined_before_anyone_is_asked() -> None:
    results = {"t1": _order("delivered")}
    args = {"order_id": ORDER, "item_ids": ["1001", "9999"], "payment_method_id": "paypal_1"}
    with pytest.raises(PreconditionFailed) as raised:
        check_preconditions("return_delivered_order_items_v1", args, results)
    told = _told("return_delivered_order_items_v1", "delivered", "precondition_failed",
                 str(raised.value))  # fmt: skip
    assert (
        told == f"An item you named is not in order {ORDER}; please check the items of the order."
    )
    twice = {**args, "item_ids": ["1001", "1001"]}
    with pytest.raises(PreconditionFailed):
        check_preconditions("return_delivered_order_items_v1", twice, results)
    check_preconditions("return_delivered_order_items_v1", {**args, "item_ids": ["1001"]}, results)
