"""What the retail answer says about a succeeded step, and what its reviewer checks.

Payloads arrive quoted (`nodes.quoting`) and are read only through the
result models of `domains.retail.results`: a payload that does not fit its
model is not described, never guessed at. Every sentence is worded in the
turn's language (`nodes.language`); ids stay as in the data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from domains.retail.declines import declined_sentence
from domains.retail.done import DONE, ORDER_WRITES, PAYMENT_ZH, done_sentence
from domains.retail.refunds import refund_sentences
from domains.retail.results import Order, ProductTypes, User, parse
from domains.retail.sentences import delay_decision, gate_sentence, read_sentences, stance
from domains.retail.vocabulary import PAYMENT_WORDS
from nodes.contracts import Decision, Task, TaskOutcome
from nodes.domain import Stance
from nodes.language import Bilingual, Lang, say

# Ids are bounded by anything but an ASCII word character, so "单号123456789012，"
# still shows its tracking id to the reviewer (`\b` sees Chinese as a word).
FACTS = re.compile(
    r"#W\d{7}|\$\d+(?:\.\d{2})?|\d+(?:\.\d{1,2})? ?美元|(?<![0-9A-Za-z_])\d{10,12}(?![0-9A-Za-z_])"
)
"""Order ids, amounts and tracking ids: a draft states them only when the evidence holds them."""
CLAIMS: Mapping[str, str] = {
    "is now cancelled": "cancel_pending_order_v1",
    "return is requested": "return_delivered_order_items_v1",
    "exchange is requested": "exchange_delivered_order_items_v1",
    "notification was sent": "send_notification_v1",
    "is queued for delivery": "send_notification_v1",
    "已为您取消": "cancel_pending_order_v1",
    "退货申请已提交": "return_delivered_order_items_v1",
    "换货申请已提交": "exchange_delivered_order_items_v1",
    "通知已发送": "send_notification_v1",
    "已加入发送队列": "send_notification_v1",
}
STATUSES: Mapping[str, tuple[str, ...]] = {
    "pending": ("待处理",),
    "processed": ("已发货",),
    "delivered": ("已送达",),
    "cancelled": ("canceled", "已取消"),
    "return requested": ("已申请退货",),
    "exchange requested": ("已申请换货",),
    "queued": ("已加入发送队列",),
}
"""Order (and notification) statuses and their other words: what a model draft is checked by."""
FOREIGN: Mapping[str, str] = {"order_ids": "another order"}
REASONS: Mapping[str, Bilingual] = {
    "replanned": Bilingual(
        "the service for it is not answering, so I used the order's own record instead",
        "相关服务没有响应，所以我改为直接查看了订单记录",
    ),
    "domain_error": Bilingual(
        "the current state of the order or account does not allow it",
        "订单或账户目前的状态不允许这项操作",
    ),
}
STEPS_ZH: Mapping[str, str] = {
    "cancel_pending_order_v1": "取消订单",
    "modify_pending_order_address_v1": "修改订单收货地址",
    "modify_pending_order_payment_v1": "修改订单支付方式",
    "modify_pending_order_items_v1": "修改订单商品",
    "modify_user_address_v1": "修改账户地址",
    "return_delivered_order_items_v1": "退货",
    "exchange_delivered_order_items_v1": "换货",
    "send_notification_v1": "发送通知",
    "transfer_to_human_agents_v1": "转接人工客服",
    "get_order_details_v1": "查询订单",
    "get_user_details_v1": "查询账户",
    "track_shipment_v1": "查询物流",
    "calculate_eta_v1": "估算送达时间",
    "detect_delay_pattern_v1": "检查延误",
    "search_knowledge_v1": "查询帮助中心",
    "faq_cache_lookup_v1": "查询常见问题",
    "list_all_product_types_v1": "查询商品类别",
    "get_product_details_v1": "查询商品详情",
    "get_item_details_v1": "查询商品信息",
    "find_user_id_by_email_v1": "查找账户",
    "find_user_id_by_name_zip_v1": "查找账户",
    "calculate_v1": "计算",
    "generate_summary_v1": "生成摘要",
}
"""Each retail step's name as a Chinese customer reads it (English names come from the id)."""
_ORDER_ID = re.compile(r"#W\d{7}")
_ORDER_READ = "get_order_details_v1"
# Writes whose result states the refunds they made (or where a return's refund goes).
_REFUNDING = frozenset({"cancel_pending_order_v1", "return_delivered_order_items_v1"})
MAX_TYPES = 12
"""Product types a catalogue answer names; the rest are counted."""
_LISTS_OWN_ORDERS = frozenset({"get_user_details_v1", "modify_user_address_v1"})


class RetailAnswers:
    """The retail `DomainAnswers` (the pack adds its refusal texts)."""

    facts = FACTS
    claims = CLAIMS
    statuses = STATUSES
    refusals: Mapping[str, Bilingual] = {}
    foreign = FOREIGN
    reasons = REASONS

    def describe(
        self, task: Task, outcome: TaskOutcome, lang: Lang, *, feeds: bool = False
    ) -> list[str]:
        if outcome.skill in DONE:
            order = parse(Order, outcome.payload) if outcome.skill in _REFUNDING else None
            return [
                done_sentence(task, outcome, lang),
                *(refund_sentences(order, lang) if order else ()),
            ]
        payload = outcome.payload
        if outcome.skill == "list_all_product_types_v1":
            types = parse(ProductTypes, payload)
            if types is None or feeds:
                return []  # feeding a product's own read: that product is told instead
            names = sorted(types.root)
            shown, more = names[:MAX_TYPES], len(names) - MAX_TYPES
            return [
                say(
                    lang,
                    f"We sell: {', '.join(shown)}" + (f", and {more} more." if more > 0 else "."),
                    f"我们销售的商品类别有：{'、'.join(shown)}"
                    + (f"，另有 {more} 种。" if more > 0 else "。"),
                )
            ]
        return read_sentences(outcome.skill, payload, lang, feeds=feeds)

    def supersedes(self, write: Task, read: Task) -> bool:
        # An order read before a change on that order states its old status.
        return (
            write.skill in ORDER_WRITES
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

    def decision(self, decision: Decision, lang: Lang) -> str:
        return delay_decision(decision, lang)

    def declined(
        self, task: Task, outcome: TaskOutcome, results: Mapping[str, Any], lang: Lang
    ) -> str | None:
        return declined_sentence(task, outcome, results, lang)

    def condition_sentence(self, task: Task, tested: TaskOutcome, held: bool, lang: Lang) -> str:
        return gate_sentence(task.skill, tested.payload, held, lang)

    def target(self, task: Task, lang: Lang) -> str:
        order_id = task.args.get("order_id")
        if not (isinstance(order_id, str) and _ORDER_ID.fullmatch(order_id)):
            return ""
        return say(lang, f" for order {order_id}", f"订单 {order_id} 的")

    def step(self, skill: str, lang: Lang) -> str | None:
        return STEPS_ZH.get(skill) if lang == "zh" else None

    def binding_reason(self, task: Task, lang: Lang) -> str | None:
        # Told from the step's own (planned) arguments, never from the error text.
        for value in task.args.values():
            kind = value.removeprefix("bind:user_payment:") if isinstance(value, str) else None
            if kind in PAYMENT_WORDS and kind != value:
                return say(
                    lang,
                    f"there is no {kind.replace('_', ' ')} on file;"
                    " name a payment method on your account",
                    f"您的账户中没有{PAYMENT_ZH.get(kind, kind)}，请指定账户里已有的一种支付方式",
                )
        if "address" in task.args:
            return say(lang, "please write the address as 'street, [unit,] city, ST 12345'",
                       "请按“街道, [门牌/单元,] 城市, 州缩写 邮编”的格式填写地址，"
                       "例如 'street, [unit,] city, ST 12345'")  # fmt: skip
        return None
