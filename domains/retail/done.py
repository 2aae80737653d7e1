"""What a succeeded retail write (or hand-over) tells the customer, in their language.

Chinese templates name an order as "订单 #W… " (or "您的订单" when the step has
no id) and keep every id, e-mail and payment word exactly as the data has it.
The claim phrases the reviewer checks (`domains.retail.answers.CLAIMS`) occur
only here, never in a sentence about a read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domains.retail.memory import PREFERRED
from domains.retail.results import Notification, Order, parse
from nodes.contracts import Task, TaskOutcome
from nodes.language import Bilingual, Lang, say

DONE: Mapping[str, Bilingual] = {
    "cancel_pending_order_v1": Bilingual(
        "Order {order_id} is now cancelled; the refund goes back to the original payment.",
        "{order}已为您取消，款项将原路退回到原支付方式。"),
    "modify_pending_order_address_v1": Bilingual(
        "The shipping address of order {order_id} is updated.", "{order}的收货地址已更新。"),
    "modify_pending_order_payment_v1": Bilingual(
        "The payment method of order {order_id} is changed.", "{order}的支付方式已更改。"),
    "modify_pending_order_items_v1": Bilingual(
        "The items of order {order_id} are changed.", "{order}的商品已更改。"),
    "modify_user_address_v1": Bilingual(
        "Your account address is updated.", "您账户的默认地址已更新。"),
    "return_delivered_order_items_v1": Bilingual(
        "A return is requested for order {order_id}; you will receive return instructions by e-mail.",
        "{order}的退货申请已提交，退货说明将通过电子邮件发送给您。"),
    "exchange_delivered_order_items_v1": Bilingual(
        "An exchange is requested for order {order_id}.", "{order}的换货申请已提交。"),
    "send_notification_v1": Bilingual(
        "A notification to {recipient} is queued for delivery.",
        "发给 {recipient} 的通知已加入发送队列。"),
    "transfer_to_human_agents_v1": Bilingual(
        "I have passed your case to a human colleague.", "我已将您的问题转交给人工客服同事。"),
}  # fmt: skip
# The notification step only queues; a row found already delivered says so.
NOTIFIED: Mapping[str, Bilingual] = {
    "sent": Bilingual("A notification was sent to {recipient}.", "通知已发送至 {recipient}。"),
    "failed": Bilingual(
        "A notification to {recipient} could not be delivered.", "发给 {recipient} 的通知未能送达。"
    ),
}
ORDER_WRITES = frozenset(s for s, text in DONE.items() if "{order_id}" in text.en)
PAYMENT_ZH: Mapping[str, str] = {"gift_card": "礼品卡", "paypal": "PayPal", "credit_card": "信用卡"}


def done_sentence(task: Task, outcome: TaskOutcome, lang: Lang) -> str:
    """The sentence for a succeeded write of `DONE`, with the remembered refund method if used."""
    template = DONE[outcome.skill]
    order_id = task.args.get("order_id")
    fields: dict[str, Any] = {
        "order_id": order_id,
        "order": f"订单 {order_id} " if order_id else "",
    }
    if outcome.skill == "send_notification_v1":
        note = parse(Notification, outcome.payload)
        if note:
            fields["recipient"] = note.recipient
            template = NOTIFIED.get(note.status, template)
    sentence = template.say(lang).format_map(_Missing(lang, {k: v for k, v in fields.items() if v}))
    return sentence + preferred_refund(task, outcome, lang)


def preferred_refund(task: Task, outcome: TaskOutcome, lang: Lang) -> str:
    """ " The refund goes to your <method>, ..." when a remembered preference chose it."""
    planned = task.args.get("payment_method_id")
    kind = planned.removeprefix(PREFERRED) if isinstance(planned, str) else None
    order = parse(Order, outcome.payload) if kind and kind != planned else None
    used = order.return_payment_method_id if order else None
    if not kind or not used or not used.startswith(kind):
        return ""
    if lang == "zh":
        return f"按照您之前让我们记下的偏好，退款将退到您的{PAYMENT_ZH.get(kind, kind)}。"
    word = kind.replace("_", " ").replace("paypal", "PayPal")
    return f" The refund goes to your {word}, the refund method you asked us to remember."


class _Missing(dict[str, Any]):
    """What a template says in place of a field the step did not have."""

    def __init__(self, lang: Lang, fields: Mapping[str, Any]) -> None:
        super().__init__(fields)
        self.lang = lang

    def __missing__(self, key: str) -> str:
        if key in ("order_id", "order"):
            return say(self.lang, "your order", "您的订单")
        return say(self.lang, "you", "您")
