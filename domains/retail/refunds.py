"""What an order's payment history says about its refunds, in the customer's words.

Each refund is stated with its amount and the payment method it goes to, as
the order's `payment_history` records them, so the reviewer traces every
figure; a requested return states where its refund will go. Nothing is
summed or estimated: an amount the order does not hold is never said.
"""

from __future__ import annotations

from collections.abc import Mapping

from domains.retail.results import Order
from nodes.language import Lang, say

KINDS: Mapping[str, tuple[str, str]] = {
    "credit_card": ("credit card", "信用卡"),
    "paypal": ("PayPal", "PayPal"),
    "gift_card": ("gift card", "礼品卡"),
}
"""A payment method id's kind (its prefix) as the customer calls it."""


def refund_sentences(order: Order, lang: Lang) -> list[str]:
    """Every refund on `order` (amount -> method), and where a requested return's refund goes."""
    refunds = [p for p in order.payment_history if p.transaction_type == "refund"]
    to = say(lang, " to your ", " 退回您的")
    parts = [f"${p.amount:.2f}{to}{method_words(p.payment_method_id, lang)}" for p in refunds]
    sentences = []
    if parts:
        sentences.append(say(lang, f"Refunded on order {order.order_id}: {'; '.join(parts)}.",
                             f"订单 {order.order_id} 已退款：{'；'.join(parts)}。"))  # fmt: skip
    if order.status == "return requested" and order.return_payment_method_id:
        method = method_words(order.return_payment_method_id, lang)
        sentences.append(say(
            lang,
            f"The refund for the returned items of order {order.order_id} goes to your {method} once the return is processed.",
            f"订单 {order.order_id} 退货处理完成后，退款将退回您的{method}。",
        ))  # fmt: skip
    return sentences


def method_words(method_id: str, lang: Lang) -> str:
    """'credit card (credit_card_0000001)': the kind in words, then the id as stored."""
    kind = next((k for k in KINDS if method_id.startswith(k)), None)
    if kind is None:
        return method_id
    en, zh = KINDS[kind]
    return say(lang, f"{en} ({method_id})", f"{zh}（{method_id}）")
