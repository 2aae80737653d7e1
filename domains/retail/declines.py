"""Why the store declined a write, and what the customer can do instead.

A declined write (`nodes.outcomes`) is a complete answer: the order's state
(read before the write, so the precondition could be checked) or the tool's
own business rule says no. The reason is told from that state, or from which
of the retail tools' fixed error messages was raised — never by repeating the
message, which is operator text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domains.retail.planning.preconditions import ITEM_MISSING, PRECONDITIONS
from domains.retail.results import Order, parse
from nodes.contracts import Task, TaskOutcome
from nodes.language import Bilingual, Lang

ACTIONS: Mapping[str, str] = {
    "cancel_pending_order_v1": "cancel",
    "modify_pending_order_items_v1": "modify",
    "modify_pending_order_address_v1": "modify",
    "modify_pending_order_payment_v1": "modify",
    "return_delivered_order_items_v1": "return",
    "exchange_delivered_order_items_v1": "exchange",
}
"""Each order write by what it does to the order."""
_PENDING = ("pending", "pending (item modified)")
_B = Bilingual
# (what the write does, the order's status) -> why not, and what instead. {order_id} is the order.
BY_STATUS: Mapping[tuple[str, str], Bilingual] = {
    ("cancel", "processed"): _B(
        "Order {order_id} has already shipped, so it can no longer be cancelled; once it is delivered, you can return it.",
        "订单 {order_id} 已经发货，无法再取消；送达后您可以申请退货。"),
    ("cancel", "delivered"): _B(
        "Order {order_id} has already been delivered, so it cannot be cancelled; you can return or exchange its items instead.",
        "订单 {order_id} 已经送达，无法取消；您可以改为申请退货或换货。"),
    ("cancel", "cancelled"): _B(
        "Order {order_id} is already cancelled; there is nothing left to cancel.",
        "订单 {order_id} 已经取消，无需再次取消。"),
    ("modify", "processed"): _B(
        "Order {order_id} has already shipped, so it can no longer be changed; once it is delivered, you can return or exchange its items.",
        "订单 {order_id} 已经发货，无法再修改；送达后您可以申请退货或换货。"),
    ("modify", "delivered"): _B(
        "Order {order_id} has already been delivered, so it can no longer be changed; you can return or exchange its items instead.",
        "订单 {order_id} 已经送达，无法再修改；您可以改为申请退货或换货。"),
    ("modify", "cancelled"): _B(
        "Order {order_id} is cancelled, so it can no longer be changed; you are welcome to place a new order.",
        "订单 {order_id} 已经取消，无法再修改；您可以重新下单。"),
    ("return", "pending"): _B(
        "Order {order_id} has not shipped yet, so it cannot be returned; you can cancel it instead.",
        "订单 {order_id} 还没有发货，无法退货；您可以直接取消这个订单。"),
    ("return", "processed"): _B(
        "Order {order_id} is on its way but not delivered yet, so it cannot be returned yet; you can return it once it is delivered.",
        "订单 {order_id} 正在运输中、尚未送达，暂时无法退货；送达后即可申请退货。"),
    ("return", "cancelled"): _B(
        "Order {order_id} is cancelled, so there is nothing to return.",
        "订单 {order_id} 已经取消，没有可退的商品。"),
    ("exchange", "pending"): _B(
        "Order {order_id} has not shipped yet, so it cannot be exchanged; you can change its items while it is pending instead.",
        "订单 {order_id} 还没有发货，无法换货；在待处理状态下您可以直接修改订单里的商品。"),
    ("exchange", "processed"): _B(
        "Order {order_id} is on its way but not delivered yet, so it cannot be exchanged yet; you can exchange its items once it is delivered.",
        "订单 {order_id} 正在运输中、尚未送达，暂时无法换货；送达后即可申请换货。"),
    ("exchange", "cancelled"): _B(
        "Order {order_id} is cancelled, so there is nothing to exchange.",
        "订单 {order_id} 已经取消，没有可换的商品。"),
}  # fmt: skip
IN_PROGRESS: Mapping[str, Bilingual] = {
    "return requested": _B(
        "Order {order_id} already has a return in progress, so nothing else can be done to it now.",
        "订单 {order_id} 已经在退货流程中，目前无法再做其他操作。"),
    "exchange requested": _B(
        "Order {order_id} already has an exchange in progress, so nothing else can be done to it now.",
        "订单 {order_id} 已经在换货流程中，目前无法再做其他操作。"),
}  # fmt: skip
"""A status after which no write applies, whatever the write."""
_ITEM_MISSING = _B(
    "An item you named is not in order {order_id}; please check the items of the order.",
    "您指定的商品不在订单 {order_id} 中，请核对订单里的商品。",
)
# A fragment of the precondition's or a retail tool's own error message -> why not, in customer words; first match wins.
BY_MESSAGE: tuple[tuple[str, Bilingual], ...] = (
    ("Non-pending order", _B(
        "Order {order_id} is no longer pending, so it can no longer be cancelled or changed; once it is delivered, you can return or exchange its items.",
        "订单 {order_id} 已不是待处理状态，无法再取消或修改；送达后您可以申请退货或换货。")),
    ("Non-delivered order", _B(
        "Order {order_id} has not been delivered, so it cannot be returned or exchanged yet.",
        "订单 {order_id} 还没有送达，暂时无法退货或换货。")),
    ("New item", _B(
        "The new item you chose for order {order_id} is not available; please pick another option.",
        "您为订单 {order_id} 选择的新商品目前无货，请换一个款式。")),
    (ITEM_MISSING, _ITEM_MISSING),
    ("not found", _ITEM_MISSING),
    ("Insufficient gift card balance", _B(
        "The gift card's balance is not enough for this change to order {order_id}; please choose another payment method.",
        "礼品卡余额不足，无法为订单 {order_id} 办理；请选择其他支付方式。")),
    ("different from the current one", _B(
        "Order {order_id} is already paid with that payment method; nothing needs to change.",
        "订单 {order_id} 已经在使用这种支付方式，无需更改。")),
    ("original payment method", _B(
        "A refund for order {order_id} can only go to its original payment method or a gift card on your account.",
        "订单 {order_id} 的退款只能退回原支付方式或您账户里的礼品卡。")),
    ("different from the old item id", _B(
        "The new item for order {order_id} is the same as the one you have; please choose a different option.",
        "您为订单 {order_id} 选择的新商品与原商品相同，请选择不同的款式。")),
    ("should match", _B(
        "Each item of order {order_id} you exchange needs exactly one new item.",
        "订单 {order_id} 中每件要换的商品都需要对应一件新商品。")),
    ("Invalid reason", _B(
        "A cancellation of order {order_id} needs one of two reasons: 'no longer needed' or 'ordered by mistake'.",
        "取消订单 {order_id} 需要说明原因：“不再需要”（no longer needed）或“下错单了”（ordered by mistake）。")),
)  # fmt: skip


def declined_sentence(
    task: Task, outcome: TaskOutcome, results: Mapping[str, Any], lang: Lang
) -> str | None:
    """Why the order write was declined and what instead; None when it is not an order write."""
    action = ACTIONS.get(outcome.skill)
    order_id = task.args.get("order_id")
    if action is None or not isinstance(order_id, str):
        return None
    status = _status_read(order_id, results)
    told = None
    if status is not None and status not in PRECONDITIONS.get(outcome.skill, ()):
        told = IN_PROGRESS.get(status) or BY_STATUS.get((action, _grouped(status)))
    if told is None and outcome.error_code in ("domain_error", "precondition_failed"):
        message = outcome.error or ""
        told = next((words for fragment, words in BY_MESSAGE if fragment in message), None)
    return told.say(lang).format(order_id=order_id) if told else None


def _status_read(order_id: str, results: Mapping[str, Any]) -> str | None:
    """The status of `order_id` as the read before the write found it."""
    for payload in results.values():
        order = parse(Order, payload)
        if order is not None and order.order_id == order_id:
            return order.status
    return None


def _grouped(status: str) -> str:
    return "pending" if status in _PENDING else status
