"""Retail sentences for what a read found, and the delay verdict arbitration weighs.

Every payload is read through its result model (`domains.retail.results`);
text fields in it are already quoted by the harness. Each sentence is worded
in the turn's language; ids, dates and data text stay exactly as in the data,
set off by spaces so the reviewer's fact patterns find them in Chinese too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from datetime import datetime

from domains.retail.refunds import refund_sentences
from domains.retail.results import (
    ArrivalEstimate,
    DelayReport,
    DelayVerdict,
    Eta,
    FaqLookup,
    KnowledgeSearch,
    Order,
    Product,
    TrackedShipment,
    Tracking,
    User,
    parse,
)
from nodes.contracts import Decision
from nodes.domain import Stance
from nodes.language import Bilingual, Lang, say

HELP_CENTRE = Bilingual("From our help centre: {}", "帮助中心的说明：{}")
KNOWLEDGE_CONFIDENCE = 0.5
"""A document about delays is context, not a verdict on this shipment."""
VERDICTS: Mapping[str, Bilingual] = {
    "delayed": Bilingual("the shipment is delayed", "包裹已延误"),
    "at_risk": Bilingual("the shipment may arrive late", "包裹可能会晚到"),
    "on_track": Bilingual("the shipment is on track", "包裹运输正常"),
    "delivered_late": Bilingual("the shipment was delivered late", "包裹已送达，但晚于承诺的日期"),
    "delivered_on_time": Bilingual("the shipment was delivered on time", "包裹已按时送达"),
    "cancelled": Bilingual("the shipment was cancelled", "这批货已取消发运"),
}
ORDER_STATUSES_ZH: Mapping[str, str] = {
    "pending": "待处理",
    "pending (item modified)": "待处理（商品已修改）",
    "processed": "已发货",
    "delivered": "已送达",
    "cancelled": "已取消",
    "return requested": "已申请退货",
    "exchange requested": "已申请换货",
}
"""An order status as a Chinese customer reads it; a status not listed is shown as stored."""
# Most telling first: with several shipments, the worst one answers "why late".
_SEVERITY = ("delayed", "delivered_late", "at_risk", "cancelled", "on_track", "delivered_on_time")


STATES: Mapping[str, Bilingual] = {
    "pending": Bilingual("has not shipped yet", "还没有发货"),
    "pending (item modified)": Bilingual("has not shipped yet", "还没有发货"),
    "processed": Bilingual("has shipped", "已经发货"),
    "delivered": Bilingual("has been delivered", "已经送达"),
    "cancelled": Bilingual("is cancelled", "已经取消"),
    "return requested": Bilingual("has a return requested", "已经申请了退货"),
    "exchange requested": Bilingual("has an exchange requested", "已经申请了换货"),
}
"""What an order in each status is, as a condition on it is told."""
ALREADY: Mapping[str, Bilingual] = {
    "processed": Bilingual("has already shipped", "已经发货了"),
    "delivered": Bilingual("has already been delivered", "已经送达了"),
    "cancelled": Bilingual("is already cancelled", "已经取消了"),
    "return requested": Bilingual("already has a return requested", "已经申请了退货"),
    "exchange requested": Bilingual("already has an exchange requested", "已经申请了换货"),
}
"""The same, said of a status that stopped a change."""
UNDONE: Mapping[str, Bilingual] = {
    "cancel_pending_order_v1": Bilingual("cancel it", "取消"),
    "return_delivered_order_items_v1": Bilingual("request a return", "办理退货"),
    "exchange_delivered_order_items_v1": Bilingual("request an exchange", "办理换货"),
    "modify_pending_order_address_v1": Bilingual("change its shipping address", "修改收货地址"),
    "modify_pending_order_payment_v1": Bilingual("change its payment method", "修改支付方式"),
    "modify_pending_order_items_v1": Bilingual("change its items", "修改商品"),
}
"""The change a condition stopped, after "so I did not"."""
_RETURN_LATER = Bilingual(
    "; once it is delivered, you can return it", "；包裹送达后，您可以申请退货"
)
_CANCEL_INSTEAD = Bilingual("; you can still cancel it before it ships", "；发货前您仍可以取消它")
INSTEAD: Mapping[tuple[str, str], Bilingual] = {
    ("cancel_pending_order_v1", "processed"): _RETURN_LATER,
    ("return_delivered_order_items_v1", "processed"): _RETURN_LATER,
    ("return_delivered_order_items_v1", "pending"): _CANCEL_INSTEAD,
    ("return_delivered_order_items_v1", "pending (item modified)"): _CANCEL_INSTEAD,
}
"""What the customer can do instead, where it helps (change, status -> clause)."""


def gate_sentence(skill: str, tested: object, held: bool, lang: Lang) -> str:
    """Which way a condition on the order read `tested` went for the write `skill`."""
    order = parse(Order, tested)
    undone = UNDONE.get(skill, Bilingual("go ahead", "办理"))
    if order is None:
        if held:
            return say(lang, "The condition you gave is met.", "符合您提出的条件。")
        return say(lang, f"The condition you gave is not met, so I did not {undone.en}.",
                   f"您提出的条件不满足，所以我没有为您{undone.zh}。")  # fmt: skip
    status = status_words(order.status, lang)
    words = _state_words(order.status, held).say(lang)
    said = say(lang, f"Order {order.order_id} {words} (status {status})",
               f"订单 {order.order_id} {words}（状态：{status}）")  # fmt: skip
    if held:
        return said + say(lang, ", so your condition is met.", "，符合您提出的条件。")
    instead = INSTEAD.get((skill, order.status), Bilingual("", "")).say(lang)
    return said + say(lang, f", so I did not {undone.en}{instead}.",
                      f"，所以我没有为您{undone.zh}{instead}。")  # fmt: skip


def _state_words(status: str, held: bool) -> Bilingual:
    already = None if held else ALREADY.get(status)
    return already or STATES.get(status) or Bilingual(f"is {status}", "是这个状态")


def read_sentences(skill: str, payload: object, lang: Lang, *, feeds: bool = False) -> list[str]:
    """What one succeeded read found, or nothing when its payload does not fit its model.

    A read another step depends on (`feeds`) leaves out what that step tells itself:
    an order's contents, which a change on it lists item by item; the account's order
    list, read for the payment methods a change picks from."""
    if feeds and skill == "get_order_details_v1":
        return _order(payload, lang, contents=False)
    if feeds and skill == "get_user_details_v1":
        return []
    describe = _READS.get(skill)
    return describe(payload, lang) if describe else []


def status_words(status: str, lang: Lang) -> str:
    """An order status in `lang` (English: as stored)."""
    return ORDER_STATUSES_ZH.get(status, status) if lang == "zh" else status


def stance(skill: str, payload: object) -> Stance | None:
    """The delay detector's verdict, or the top knowledge document, as an answer to "why late"."""
    if skill == "detect_delay_pattern_v1":
        report = parse(DelayReport, payload)
        return _worst(report.shipments) if report else None
    if skill in ("search_knowledge_v1", "faq_cache_lookup_v1"):
        search = parse(KnowledgeSearch, payload)
        if search and search.results:
            top = search.results[0]
            return Stance(top.topic or top.title, KNOWLEDGE_CONFIDENCE, (top.snippet,))
        faq = parse(FaqLookup, payload)
        if faq and faq.answers:
            return Stance(faq.answers[0].slug, KNOWLEDGE_CONFIDENCE, (faq.answers[0].answer,))
    return None


def delay_decision(decision: Decision, lang: Lang) -> str:
    """A detector verdict is told with its evidence; any other answer as the likely reason."""
    verdict = VERDICTS.get(decision.answer)
    if verdict is None:
        return say(lang, f"Most likely reason for the delay: {decision.answer}.",
                   f"延误最可能的原因：{decision.answer}。")  # fmt: skip
    backing = [p for p in decision.proposals if p.answer == decision.answer]
    evidence = say(lang, "; ", "；").join(e for p in backing[:1] for e in p.evidence if e)
    words = verdict.say(lang)
    if lang == "zh":
        return f"延误检查结果：{words}" + (f"（{evidence}）。" if evidence else "。")
    return f"Delay check: {words}" + (f" ({evidence})." if evidence else ".")


def _worst(shipments: list[DelayVerdict]) -> Stance | None:
    ranked = sorted(
        shipments,
        key=lambda s: _SEVERITY.index(s.verdict) if s.verdict in _SEVERITY else len(_SEVERITY),
    )
    if not ranked:
        return None
    top = ranked[0]
    return Stance(top.verdict, top.confidence, tuple(top.evidence))


def _order(payload: object, lang: Lang, *, contents: bool = True) -> list[str]:
    order = parse(Order, payload)
    if order is None:
        return []
    status = status_words(order.status, lang)
    return [say(lang, f"Order {order.order_id} is {status}.",
                f"订单 {order.order_id} 目前的状态是：{status}。"),
            *(_contents(order, lang) if contents else ()),
            *refund_sentences(order, lang)]  # fmt: skip


def _contents(order: Order, lang: Lang) -> list[str]:
    """What the order holds, each item with its options: "what's in it" asks the same read
    as "what state is it in" (one intent), so the answer tells both."""
    if not order.items:
        return []
    counted = Counter(_item_words(item.name, item.options) for item in order.items)
    items = [f"{n} × {words}" if n > 1 else words for words, n in counted.items()]
    return [say(lang, f"It holds: {'; '.join(items)}.", f"订单中的商品：{'；'.join(items)}。")]


def _item_words(name: str, options: Mapping[str, str]) -> str:
    told = _option_words(options)
    return f"{name} ({told})" if told else name


def _option_words(options: Mapping[str, str]) -> str:
    # Each value with its option's name: "ethernet: yes", never a bare "yes".
    return ", ".join(f"{key}: {value}" for key, value in options.items())


def _user(payload: object, lang: Lang) -> list[str]:
    user = parse(User, payload)
    if user is None:
        return []
    return [
        say(
            lang, f"Your orders: {', '.join(user.orders)}.", f"您的订单：{'、'.join(user.orders)}。"
        )
    ]


def _tracking(payload: object, lang: Lang) -> list[str]:
    tracking = parse(Tracking, payload)
    if tracking is None:
        return []
    if not tracking.shipments:
        if tracking.order_id is None:
            return []
        return [say(lang, f"No shipment of order {tracking.order_id} is tracked yet.",
                    f"订单 {tracking.order_id} 暂时还没有物流信息。")]  # fmt: skip
    scans = [_scan(s, lang, tracking.order_id) for s in tracking.shipments]
    return [say(lang, "; ".join(scans) + ".", "；".join(scans) + "。")]


def _scan(shipment: TrackedShipment, lang: Lang, order_id: str | None = None) -> str:
    """The carrier's last scan: what, where and when, and who carries it; and whose order
    it is, so an answer about several orders says which package is which."""
    last = shipment.events[-1] if shipment.events else None
    what = (last.description if last else "") or shipment.status
    where = (last.location if last else "") or say(lang, "unknown location", "位置未知")
    when = _moment(last.occurred_at) if last else ""
    carrier = shipment.carrier
    if lang == "zh":
        told = "，".join(p for p in (where, when and f"{when} 扫描", f"承运商 {carrier}") if p)
        whose = f"，属于订单 {order_id}" if order_id else ""
        return f"包裹 {shipment.tracking_id}：{what}（{told}）{whose}"
    whose = f", for order {order_id}" if order_id else ""
    return (
        f"Shipment {shipment.tracking_id}: {what} at {where}"
        + (f" on {when}" if when else "")
        + f" (carrier {carrier}){whose}"
    )


def _moment(text: str) -> str:
    """'2024-05-14 09:30' of an ISO time, or the text as stored when it is not one."""
    try:
        return datetime.fromisoformat(text).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return text


def _eta(payload: object, lang: Lang) -> list[str]:
    eta = parse(Eta, payload)
    told = [_arrival(s, lang) for s in eta.shipments] if eta else []
    return [sentence for sentence in told if sentence]


def _arrival(estimate: ArrivalEstimate, lang: Lang) -> str:
    if estimate.estimated_delivery is None:
        return ""
    day = datetime.fromisoformat(estimate.estimated_delivery).date().isoformat()
    tracking_id = estimate.tracking_id
    if estimate.state == "delivered":
        return say(lang, f"Shipment {tracking_id} was delivered on {day}.",
                   f"包裹 {tracking_id} 已于 {day} 送达。")  # fmt: skip
    late = estimate.on_time is False
    if lang == "zh":
        return f"包裹 {tracking_id} 预计 {day} 送达" + ("（晚于承诺的日期）。" if late else "。")
    late_words = " (later than the promised date)" if late else ""
    return f"Shipment {tracking_id}: estimated delivery {day}{late_words}."


def _knowledge(payload: object, lang: Lang) -> list[str]:
    help_centre = HELP_CENTRE.say(lang)
    search = parse(KnowledgeSearch, payload)
    if search is not None:
        if not search.results:
            return []
        # The best hit in the customer's language, where the index has one among the best.
        top = next((h for h in search.results if h.lang == lang), search.results[0])
        return [help_centre.format((top.snippet or top.title)[:300])]
    # The answer of `faq_cache_lookup_v1`, also when it stands in for a failed search.
    faq = parse(FaqLookup, payload)
    return [help_centre.format(faq.answers[0].answer[:300])] if faq and faq.answers else []


MAX_VARIANTS = 6
"""Variants a product's answer lists; the rest are counted."""


def _product(payload: object, lang: Lang) -> list[str]:
    """Which variants of a product are in stock, each with its options and price."""
    product = parse(Product, payload)
    if product is None:
        return []
    stocked = [v for v in product.variants.values() if v.available]
    if not stocked:
        return [say(lang, f"{product.name} is out of stock in every option right now.",
                    f"{product.name} 目前所有款式都缺货。")]  # fmt: skip
    shown = [f"{_option_words(v.options)} ${v.price:.2f}" for v in stocked]
    listed = "; ".join(shown[:MAX_VARIANTS])
    more = len(shown) - MAX_VARIANTS
    if lang == "zh":
        tail = f"；另有 {more} 种" if more > 0 else ""
        return [f"{product.name} 有货的款式：{listed}{tail}。"]
    tail = f"; and {more} more" if more > 0 else ""
    return [f"{product.name} is in stock in: {listed}{tail}."]


_READS: Mapping[str, Callable[[object, Lang], list[str]]] = {
    "get_order_details_v1": _order,
    "get_user_details_v1": _user,
    "get_product_details_v1": _product,
    "track_shipment_v1": _tracking,
    "calculate_eta_v1": _eta,
    "search_knowledge_v1": _knowledge,
    "faq_cache_lookup_v1": _knowledge,
}
