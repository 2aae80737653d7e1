"""Retail's part of a conversation: which orders a clarification offers, and the
confirmation question that states exactly what a write will do (tau2 policy: list
the action's details and get an explicit yes before any consequential change)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checkpoints.opening import Pool
from domains.retail.refunds import KINDS
from domains.retail.results import Order, parse
from domains.retail.storage.customers import PaymentMethodRow, order_summaries, payment_methods
from nodes.contracts import ConfirmationRequest, Option
from nodes.language import Lang, say

MAX_OPTIONS = 6
MONEY_MOVES = frozenset({"modify_pending_order_payment_v1", "exchange_delivered_order_items_v1"})
# Which order states each write can act on: a clarification offers those first.
FITTING_STATUS: Mapping[str, tuple[str, ...]] = {
    "cancel_order": ("pending",),
    "modify_order": ("pending",),
    "return_items": ("delivered",),
    "exchange_items": ("delivered",),
    "track_shipment": ("processed", "delivered"),
    "delay_complaint": ("processed",),
    "refund_status": ("cancelled", "return requested"),
}
STATUS_ZH: Mapping[str, str] = {
    "pending": "待处理",
    "pending (item modified)": "待处理（已修改商品）",
    "processed": "已发货",
    "delivered": "已送达",
    "cancelled": "已取消",
    "return requested": "已申请退货",
    "exchange requested": "已申请换货",
}
ACTIONS: Mapping[str, tuple[str, str]] = {
    "cancel_pending_order_v1": ("cancel order {order}", "取消订单 {order}"),
    "modify_pending_order_address_v1": (
        "change the shipping address of order {order} to {address}",
        "把订单 {order} 的收货地址改为 {address}",
    ),
    "modify_pending_order_payment_v1": (
        "pay order {order} with {payment} instead",
        "把订单 {order} 的支付方式改为 {payment}",
    ),
    "modify_pending_order_items_v1": ("change items of order {order}", "修改订单 {order} 的商品"),
    "return_delivered_order_items_v1": ("return items of order {order}", "退回订单 {order} 的商品"),
    "exchange_delivered_order_items_v1": (
        "exchange items of order {order}",
        "换货订单 {order} 的商品",
    ),
    "modify_user_address_v1": (
        "change your account's address to {address}",
        "把您账户的地址改为 {address}",
    ),
}


ASK: Mapping[str, tuple[str, str]] = {
    "order_ids": ("Which order do you mean?", "请问您指的是哪个订单？"),
    "address": (
        "What is the new address? Please write it as street, [unit,] city, state and ZIP,"
        " e.g. 12 Oak St, Apt 4, Austin, TX 78701.",
        "请问新的地址是什么？请按“街道, [单元,] 城市, 州 邮编”填写，"
        "例如 12 Oak St, Apt 4, Austin, TX 78701。",
    ),
    "payment_method": (
        "Which of your payment methods should it use?",
        "请问要改用您的哪种支付方式？",
    ),
}


class RetailConversation:
    """Clarification options and confirmation questions for retail orders."""

    async def options(
        self, pool: Pool, user_id: str, slot: str, intents: tuple[str, ...], lang: Lang
    ) -> list[Option]:
        if slot == "payment_method":
            methods = await payment_methods(pool, user_id)
            return [_method_option(m, lang) for m in methods[:MAX_OPTIONS]]
        if slot != "order_ids":
            return []
        orders = await order_summaries(pool, user_id)
        fitting = {s for i in intents for s in FITTING_STATUS.get(i, ())}
        chosen = [o for o in orders if o[1] in fitting] or orders
        return [_option(oid, status, names, lang) for oid, status, names in chosen[:MAX_OPTIONS]]

    def ask(self, slot: str, intents: tuple[str, ...], lang: Lang) -> str:
        return say(lang, *ASK.get(slot, ASK["order_ids"]))

    def confirmation(
        self, request: ConfirmationRequest, results: Mapping[str, Any], lang: Lang
    ) -> str:
        args = request.args
        action = ACTIONS.get(request.skill, ("run {skill}", "执行 {skill}"))
        order = _order_in(results, str(args.get("order_id") or ""))
        what = say(lang, *action).format(
            order=args.get("order_id", ""),
            address=_address(args),
            payment=args.get("payment_method_id", ""),
            skill=request.skill,
        )
        return what + _details(request, order, lang)


def _method_option(method: PaymentMethodRow, lang: Lang) -> Option:
    """A payment method as the customer knows it: "credit card (visa ending 1234)"."""
    en, zh = KINDS.get(method.source, (method.source, method.source))
    kind = say(lang, en, zh)
    if method.last_four:
        detail = say(
            lang,
            f"{method.brand} ending {method.last_four}",
            f"{method.brand} 尾号 {method.last_four}",
        )
    elif method.balance is not None:
        detail = say(lang, f"balance ${method.balance:.2f}", f"余额 ${method.balance:.2f}")
    else:
        detail = ""
    label = f"{kind} ({detail}, {method.id})" if detail else f"{kind} ({method.id})"
    words = (en.lower(), zh, *en.lower().split(), method.brand or "", method.last_four or "")
    return Option(value=method.id, label=label, words=tuple(w for w in dict.fromkeys(words) if w))


def _option(order_id: str, status: str, names: list[str], lang: Lang) -> Option:
    shown = status if lang == "en" else STATUS_ZH.get(status, status)
    items = ", ".join(dict.fromkeys(names)) or say(lang, "no items", "无商品")
    words = (
        status.lower(),
        STATUS_ZH.get(status, status),
        *(w.lower() for n in names for w in n.split()),
        *(n.lower() for n in names),
    )
    return Option(
        value=order_id, label=f"{order_id} ({shown}: {items})", words=tuple(dict.fromkeys(words))
    )


def _order_in(results: Mapping[str, Any], order_id: str) -> Order | None:
    for payload in results.values():
        order = parse(Order, payload)
        if order is not None and order.order_id == order_id:
            return order
    return None


def _details(request: ConfirmationRequest, order: Order | None, lang: Lang) -> str:
    """Items, amount and payment method the call touches, as far as the order shows them."""
    if order is None:
        return ""
    chosen = set(request.args.get("item_ids") or [i.item_id for i in order.items])
    items = [i for i in order.items if i.item_id in chosen]
    total = sum(i.price for i in items)
    paid = [p.payment_method_id for p in order.payment_history if p.transaction_type == "payment"]
    method = str(request.args.get("payment_method_id") or (paid[0] if paid else ""))
    refund = request.skill in ("cancel_pending_order_v1", "return_delivered_order_items_v1")
    if not refund and request.skill not in MONEY_MOVES:
        method = ""  # an address change moves no money: no payment method to state
    # Each item with its price, as the order states it; the total only where the order
    # itself holds that amount (a payment), so every figure is one the reviewer can trace.
    names = ", ".join(f"{i.name} ${i.price:.2f}" for i in items)
    paid_total = any(abs(p.amount - total) < 0.005 for p in order.payment_history)
    if paid_total and len(items) > 1:
        names += say(lang, f"; total ${total:.2f}", f"；合计 ${total:.2f}")
    text = say(lang, " ({names}", "（{names}").format(names=names)
    if method:
        text += say(
            lang,
            "; refunded to {m}" if refund else "; payment method {m}",
            "；退款至 {m}" if refund else "；支付方式 {m}",
        ).format(m=method)
    return text + say(lang, ")", "）")


def _address(args: Mapping[str, Any]) -> str:
    parts = [args.get(k) for k in ("address1", "address2", "city", "state", "zip", "country")]
    return ", ".join(str(p) for p in parts if p) or str(args.get("address") or "")
