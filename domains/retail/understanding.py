"""Retail's reading of a request (`DomainUnderstanding`): intents, slots and the rules tier.

The vocabulary (`INTENTS_SPEC`, `SLOTS`) is what the harness and the model
tiers are told; `read` is the deterministic reading of normalised text in
English and Chinese, with its patterns in `domains.retail.vocabulary`.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from checkpoints.opening import Pool
from domains.retail.conditions import CONDITION_SLOT, read_condition
from domains.retail.ids import ADDRESS, ADDRESS_SHAPE, ORDER_ID, PAYMENT_ID
from domains.retail.intents.reader import (
    STATE_READS,
    in_general,
    item_change,
    item_removed,
    known_words,
    mail_only,
    money_back_only,
    names_product,
    negated,
    points_only,
    prepare,
    received,
    standing_preference,
    takes_back,
    worded_writes,
)
from domains.retail.storage import reads
from domains.retail.vocabulary import (
    ACCOUNT_WORDS,
    BULK_SCOPE,
    BULK_WRITE_VERBS,
    CANCEL_REASONS,
    INTENT_PATTERNS,
    NEGATED_ACTIONS,
    OFF_TOPIC_TASKS,
    ORDER_WORDS,
    OWN_USER_ID,
    PAYMENT_WORDS,
    POLICY_MASKED_INTENTS,
    POLICY_PHRASES,
    REFUND_QUESTION,
    USER_ID,
    WEAK_ORDER_STATUS,
)
from nodes import language
from nodes.contracts import Understanding
from nodes.domain import OUT_OF_SCOPE, IntentSpec, Lexicon, Reading, SlotSpec, ValueAsk
from nodes.intake import learned, learned_reading, rules
from nodes.intake.clauses import clauses
from nodes.intake.learned import LabelledText, ModelSpec
from nodes.intake.learned_reading import Vocabulary
from nodes.intake.rules import any_match, compiled
from nodes.intake.surface import spaced, surface
from nodes.language import Bilingual
from skills import pii
from skills.pii import EMAIL

REFUSE_BULK = Bilingual(
    "I can't change many orders or other customers' data at once; "
    "please ask about one of your own orders at a time.",
    "我无法一次更改多个订单，也不能处理其他客户的数据；请每次只就您自己的一个订单提问。",
)


# What a change that gives no value is about: its address, or how it is paid.
ADDRESS_CUE = r"address|ship(?:ping)?\b.{0,12}\bto\b|deliver\w*\b.{0,12}\bto\b|地址|收货|寄到|送到"
PAYMENT_CUE = r"\bpay|card\b|paypal|付款|支付|付钱|卡"

# Vocabulary order: a merged model reading is listed in this order.
INTENTS_SPEC: tuple[IntentSpec, ...] = (
    IntentSpec(
        "order_status",
        "where an order stands, or what the customer's orders are",
        refers=("order_ids",),
    ),
    IntentSpec("track_shipment", "where a shipment is, its tracking", refers=("order_ids",)),
    IntentSpec(
        "delay_complaint",
        "a delivery is late and the customer asks why",
        refers=("order_ids",),
    ),
    IntentSpec(
        "cancel_order",
        "cancel a pending order",
        writes=True,
        requires=("order_ids",),
        offer=Bilingual("cancel the order", "取消订单"),
    ),
    IntentSpec(
        "modify_order",
        "change a pending order's address, items or payment",
        writes=True,
        requires=("order_ids",),
        offer=Bilingual(
            "change the order's address, items or payment", "修改订单的地址、商品或付款方式"
        ),
        # "Change the address of #W…" with no address asks for it; a change of items
        # names what it changes and is not asked.
        asks=(
            ValueAsk("address", cue=ADDRESS_CUE, shape=ADDRESS_SHAPE),
            ValueAsk("payment_method", cue=PAYMENT_CUE),
        ),
    ),
    IntentSpec(
        "return_items",
        "return items of a delivered order",
        writes=True,
        requires=("order_ids",),
        offer=Bilingual("return items of the order", "退回订单里的商品"),
    ),
    IntentSpec(
        "exchange_items",
        "exchange items of a delivered order",
        writes=True,
        requires=("order_ids",),
        offer=Bilingual("exchange items of the order", "更换订单里的商品"),
    ),
    # "Where is my refund?" names no order: the turn asks which, offering the ones
    # with a refund, rather than listing every order.
    IntentSpec("refund_status", "where a refund stands", requires=("order_ids",)),
    IntentSpec(
        "update_account",
        "change the account's default address",
        writes=True,
        # "change its address instead": an order in focus makes it that order's address.
        refers=("order_ids",),
        offer=Bilingual("change your account's default address", "修改您账户的默认地址"),
        asks=(ValueAsk("address", shape=ADDRESS_SHAPE),),
    ),
    IntentSpec(
        "notify",
        "the customer wants a notification or an e-mail sent to them",
        writes=True,
        offer=Bilingual("send you an e-mail about it", "给您发一封邮件说明"),
    ),
    IntentSpec("policy_question", "a question about a policy (returns, shipping, refunds)"),
    IntentSpec("product_info", "a question about products"),
    IntentSpec("human_handoff", "the customer asks for a human agent", safety=True, handoff=True),
    IntentSpec(
        "bulk_modify",
        'the request touches many orders at once ("all my orders", "every order")'
        " or other customers' data",
        safety=True,
        refusal=REFUSE_BULK,
    ),
    IntentSpec(OUT_OF_SCOPE, "nothing in the list applies; never combine it with another intent"),
)
SLOTS: tuple[SlotSpec, ...] = (
    SlotSpec("order_ids", 'order ids written in the message, like "#W1234567"', kind="identifier",
             pattern=r"#?([Ww]\d{7})", many=True, owned=True, max_values=10),
    SlotSpec("emails", "e-mail addresses written in full in the message", kind="identifier",
             pattern=EMAIL.pattern, many=True, max_values=5),
    SlotSpec("item_names", "product names the customer mentions", many=True, max_values=10),
    SlotSpec("address", "a full postal address the customer gives, exactly as written",
             shapes_write=True),
    SlotSpec("reason", "the reason for a cancellation",
             kind="choice", choices=tuple(CANCEL_REASONS), shapes_write=True, max_chars=100),
    SlotSpec("payment_method", 'a payment method id (like "gift_card_1234567") or one of'
             ' "gift_card", "paypal", "credit_card"', pattern=r"(?:gift_card|credit_card|paypal)(?:_\d+)?",
             shapes_write=True, max_chars=100),
    CONDITION_SLOT,
)  # fmt: skip

# Ordered so that more specific intents are not swallowed by general ones.
_PRIORITY: tuple[str, ...] = (
    "bulk_modify", "human_handoff", "cancel_order", "exchange_items", "return_items",
    "modify_order", "update_account", "refund_status", "delay_complaint", "track_shipment",
    "order_status", "notify", "policy_question", "product_info",
)  # fmt: skip


class RetailUnderstanding:
    """The retail vocabulary and its rules-tier reading."""

    intents: tuple[IntentSpec, ...] = INTENTS_SPEC
    slots: tuple[SlotSpec, ...] = SLOTS

    async def lexicon(self, pool: Pool) -> Lexicon:
        # The learned reader is loaded (or trained) here, in a worker thread: in
        # the first request it would stall every conversation of the process
        # for seconds while holding the turn's connections.
        await asyncio.to_thread(learned.load, MODEL)
        return {"products": await reads.product_names(pool)}

    def read(self, text: str, lexicon: Lexicon) -> Reading:
        names = lexicon.get("products", ())
        lowered = text.lower()
        has_items = any(n.lower() in lowered for n in names)
        found = learned_intents(lowered, has_items=has_items)
        slots = extract_slots(text, found.intents, names)
        targets = _targets(found.intents, found.read_in)
        return Reading(found.intents, slots, found.uncertain, targets, found.plausible)


READING = RetailUnderstanding()


def understand(text: str, product_names: Iterable[str] = ()) -> Understanding:
    """The harness's rules-tier `Understanding` of `text` in retail (for callers without a pool)."""
    return rules.understand(text, READING, {"products": tuple(product_names)})


LABELS = tuple(spec.name for spec in INTENTS_SPEC)


def keyword_signals(texts: Sequence[str]) -> list[list[float]]:
    """The keyword reading of each text, one column per intent: a feature of the
    learned reader, which learns where the keywords are right and where not."""
    rows = []
    for text in texts:
        lowered = spaced(text.lower())
        read = set(classify(lowered, has_orders=bool(ORDER_ID.search(text))))
        rows.append([1.0 if label in read else 0.0 for label in LABELS])
    return rows


# The corpus is generated from the pack's intents folder and the harness's nodes.language
# alone (what `domains.retail.intents.corpus` imports): a digest of 29 files, not 549.
_PACK = Path(__file__).parent
CORPUS_SOURCES = (_PACK / "intents", Path(language.__file__))
# What `prepare` and `keyword_signals` are made of: a change to any of them is a change
# of the model's features, and retrains it.
FEATURE_SOURCES = (
    Path(__file__),
    _PACK / "vocabulary.py",
    _PACK / "ids.py",
    _PACK / "intents" / "reader.py",
    Path(rules.__file__),
    Path(rules.__file__).with_name("surface.py"),
    Path(pii.__file__),
)


def _corpus() -> Sequence[LabelledText]:
    # Imported when the reader is trained, never by a request: the generator and its
    # templates are a tenth of the pack's import time.
    from domains.retail.intents.corpus import training_corpus

    return training_corpus()


MODEL = ModelSpec(
    "retail-intents",
    LABELS,
    _corpus,
    prepare,
    keyword_signals,
    version="4-written",
    features=FEATURE_SOURCES,
    sources=CORPUS_SOURCES,
)
VOCABULARY = Vocabulary(
    writes=frozenset(s.name for s in INTENTS_SPEC if s.writes),
    alone=frozenset(s.name for s in INTENTS_SPEC if s.refusal),
    nothing=OUT_OF_SCOPE,
    state_reads=STATE_READS,
    negated=negated,
    worded=worded_writes,
    takes_back=takes_back,
    points_only=points_only,
    in_general=in_general,
    rules="policy_question",
)


ClauseIntents = tuple[tuple[str, frozenset[str]], ...]


class LearnedIntents(NamedTuple):
    """The learned reader's intents after the domain's rules (`learned_intents`)."""

    intents: tuple[str, ...]
    uncertain: tuple[str, ...] = ()
    read_in: ClauseIntents = ()
    plausible: tuple[str, ...] = ()


def learned_intents(lowered: str, *, has_items: bool = False) -> LearnedIntents:
    """The intents of lower-cased text as the learned reader reads them, after the
    rules that are right as rules: a change to many orders or to other customers'
    data is refused as a whole. Also the writes it leaned to without reading them,
    and what each clause read."""
    # The customer's own id, told ("my username is …"), is nobody else's: neither the rules
    # nor the model are to read another customer from it.
    lowered = _OWN_USER_ID.sub(_without_the_id, surface(lowered, known_words()))
    if any_match(INTENT_PATTERNS["bulk_modify"], lowered) or _bulk_write(
        _blank(NEGATED_ACTIONS, lowered)
    ):
        return LearnedIntents(("bulk_modify",))
    if any_match(OFF_TOPIC_TASKS, lowered) and len(clauses(lowered)) == 1:
        return LearnedIntents((OUT_OF_SCOPE,))
    reading = learned_reading.read(learned.load(MODEL), lowered, VOCABULARY)
    if reading.intents == (OUT_OF_SCOPE,):
        # A thing named in a message the model reads as off-topic ("a poem about sneakers",
        # "forget the return, I'll keep the mat") is no product question, nor is one told
        # of with nothing asked ("the grill is amazing", "I left a review on the chair").
        chose = any(OUT_OF_SCOPE in found for _, found in reading.read_in)
        asks = (
            any(c.act == "question" for c in reading.clauses)
            or bool(_ASKS.search(lowered))
            or len(lowered.split()) <= _FRAGMENT  # "Backpack in blue" asks for it
        )
        if has_items and asks and not reading.uncertain and not chose:
            return LearnedIntents(("product_info",))
        return LearnedIntents(reading.intents, reading.uncertain, (), reading.plausible)
    read_in = _settled_clauses(reading.read_in, lowered, has_items) or (
        (lowered, frozenset(reading.intents)),
    )
    asked = [i for i in LABELS if i != OUT_OF_SCOPE and any(i in f for _, f in read_in)]
    found = item_removed(item_change(asked, lowered), lowered)
    if {"modify_order", "update_account"} <= set(found) and _account_only(lowered):
        # "My account still has the old address. Change it to …": one change, the account's.
        found.remove("modify_order")
    if standing_preference(lowered):
        found = [i for i in found if i != "refund_status"]
        if not found:
            return LearnedIntents((OUT_OF_SCOPE,), reading.uncertain, (), reading.plausible)
    if set(found) <= {"notify"} and ORDER_ID.search(lowered) and not mail_only(lowered):
        found.insert(0, "order_status")  # "e-mail me about #W…" asks for the order's facts
    intents = tuple(i for i in LABELS if i in found) or (OUT_OF_SCOPE,)
    plausible = tuple(i for i in reading.plausible if i not in intents)
    return LearnedIntents(intents, reading.uncertain, read_in, plausible)


def _settled_clauses(
    read_in: ClauseIntents, lowered: str, has_items: bool = False
) -> ClauseIntents:
    """Each clause's reading after the overlap rules of one request: two readings of
    one clause overlap ("return it and refund me" is one return), two clauses asking
    for two things do not ("change #W1's address, and my account's too")."""
    alone = len(read_in) == 1 and bool(ORDER_ID.search(lowered))
    settled = []
    named = False
    for text, found in read_in:
        # "Edit order #W1 and change the address": a clause speaks of the order named
        # in it or before it, not of one named only after it ("I moved … and cancel #W1").
        named = named or bool(ORDER_ID.search(text))
        overlaps = _resolve_overlaps(sorted(found), text, named or alone, arrived=received(lowered))
        settled.append((text, frozenset(overlaps)))
    # "Update the address on my order, I'm moving next week": beside an order's address
    # change, a clause that names no account is that change's reason, not a second one.
    if any("modify_order" in f for _, f in settled):
        settled = [(t, f - {"update_account"} if not _account_words(t) else f) for t, f in settled]
    # "When is #W1 expected?", "where is my package?": when and where a parcel is asks no
    # state of the order; where an order is asks both (LABELS.md: "where is my order",
    # "order #W1. where is it?"), as does a word of its state.
    order_named = bool(ORDER_ID.search(lowered) or _ORDER_REFERENCE.search(lowered))
    settled = [
        (t, f - {"order_status"})
        if {"order_status", "track_shipment"} <= f
        and not _ASKS_STATE.search(t)
        and not (order_named and _WHERE.search(t))
        else (t, f)
        for t, f in settled
    ]
    # "W1 现在 where?", "where. is. my. order.": where an order is, asked of the order and no
    # parcel, asks its state too, though the model read only the whereabouts.
    settled = [
        (t, f | {"order_status"})
        if "track_shipment" in f
        and _WHERE.search(t)
        and (ORDER_ID.search(t) or _ORDER_ASKED.search(t))
        and not _PARCEL.search(t)
        else (t, f)
        for t, f in settled
    ]
    # "E-mail me when the refund is out", "text me when it's out for delivery": the event an
    # e-mail waits for asks nothing of its own (LABELS.md), unless a fact is asked for too
    # ("e-mail me the tracking number once it ships").
    settled = [
        (t, f - _EVENT_READS)
        if "notify" in f and mail_only(t) and not _FACT_ASKED.search(t)
        else (t, f)
        for t, f in settled
    ]
    # "My refund still hasn't come. When will I see it?": with no parcel or item named, when
    # and how late is the refund's (LABELS.md: "my refund is late" is `refund_status`).
    # A clause naming an order of its own or tracking keeps its question ("cancel #W1, track
    # #W2 and tell me where my refund is").
    parcel = has_items or names_product(lowered) or bool(_PARCEL.search(lowered))
    if any("refund_status" in f for _, f in settled) and not parcel:
        settled = [
            (
                t,
                f
                if ORDER_ID.search(t) or _TRACK.search(t)
                else f - {"track_shipment", "delay_complaint"},
            )
            for t, f in settled
        ]
    # "Cancel it and refund me", "取消订单然后把钱退到礼品卡": money back beside a cancel is the
    # cancel's, not a return.
    if any("cancel_order" in f for _, f in settled):
        settled = [(t, f - {"return_items"} if money_back_only(t) else f) for t, f in settled]
    # "… I hate the smell. order W5064428": a clause that only names the order the
    # others speak of asks nothing of its own; nor does "what's going on?" or "is that
    # possible?" beside the clause it is about.
    bare = [_names_only(text) or bool(_ECHO.fullmatch(text)) for text, _ in settled]
    if any(f - {OUT_OF_SCOPE} for (_, f), b in zip(settled, bare, strict=True) if not b):
        return tuple((t, frozenset() if b else f) for (t, f), b in zip(settled, bare, strict=True))
    return tuple(settled)


# "The e-mail address on my account" is a contact, no postal address.
_MAIL_ADDRESS = re.compile(r"e-?mail(?: address)?|邮箱地址|邮件地址")
_TRACK = re.compile(r"\btrack|物流|快递单号")
_EVENT_READS = frozenset({"order_status", "track_shipment", "refund_status"})
_FACT_ASKED = re.compile(
    r"tracking|number|\beta\b|status|amount|how much|where|when will|单号|物流|进度|多少|在哪|到哪"
)
_REPLACED = re.compile(
    r"\binstead\b|\b(?:swap|switch|change|replace)\w* (?:it |them )?(?:for|with|to)\b|换成|改成|换为|改为"
)
_SWAP_FOR_A_PERSON = re.compile(r"换(?:个|一个|成)?(?:真人|人工|客服|活人|人来|个人)")
_LATE = re.compile(
    r"\blate\b|\bdelay|\bstill\b|\bnot yet\b|\bhaven'?t|\bhasn'?t|\boverdue|\bpast\b|\bweeks?\b"
    r"|\bnever\b|\bnot\b|n'?t\b|\bno\b|\bnothing\b|\bby now\b|\bshould(?:'ve| have)\b"
    r"|晚|延误|迟|没|不|早就|该到|超时|超过"
)
_PARCEL = re.compile(
    r"\b(?:package|parcel|box|delivery|shipment|tracking|courier|carrier|items?|stuff|order)\b"
    r"|快递|包裹|物流|东西|货|单号"
)
_ECHO = re.compile(
    r"\W*(?:so |and |but |like |seriously )?(?:what'?s going on|what is going on|what happened"
    r"|what'?s happening|what gives|is (?:that|this|it) (?:even )?possible|can (?:you|u) do (?:that|this|it)"
    r"|would that work|is that ok(?:ay)?|怎么回事|什么情况|咋回事|可以吗|行吗|能行吗|可以不|行不行|能不能行)\W*"
)
_ORDER_REFERENCE = re.compile(
    r"\b(?:my |the |this |that )?(?:order|purchase)s?(?: (?:no\.?|number|id))?\b|订单号?|单号"
    r"|(?:这|那|这个|那个|我的|哪个)单"
)


def _names_only(text: str) -> bool:
    """Whether `text` says nothing but which order ("order W1234567", "订单#W…")."""
    rest = _ORDER_REFERENCE.sub(" ", ORDER_ID.sub(" ", text.lower()))
    return bool(ORDER_ID.search(text)) and not re.search(r"[a-z\u4e00-\u9fff]", rest)


def _targets(intents: tuple[str, ...], read_in: ClauseIntents) -> dict[str, tuple[str, ...]]:
    """The orders each intent's own clauses name, when the clauses name different ones."""
    named = [(_order_ids(text), found) for text, found in read_in]
    everything = {i for ids, _ in named for i in ids}
    targets: dict[str, tuple[str, ...]] = {}
    for intent in intents:
        own = tuple(dict.fromkeys(i for ids, found in named if intent in found for i in ids))
        if own and set(own) != everything:
            targets[intent] = own
    return targets


def _order_ids(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys("#" + m.upper() for m in ORDER_ID.findall(text)))


def classify(lowered: str, *, has_orders: bool = False, has_items: bool = False) -> tuple[str, ...]:
    """The keyword reading of lower-cased text, in priority order; never empty.

    The rules tier's reading before the learned one, kept as the baseline
    `make eval` measures the learned reader against."""
    lowered = _blank(NEGATED_ACTIONS, lowered)
    actions = _blank(POLICY_PHRASES, lowered)
    found = [
        i
        for i in _PRIORITY
        if any_match(INTENT_PATTERNS[i], actions if i in POLICY_MASKED_INTENTS else lowered)
    ]
    if "bulk_modify" in found or _bulk_write(lowered):
        # Refused as a whole before planning: the other intents would only
        # describe what the bulk request wanted done.
        return ("bulk_modify",)
    found = _resolve_overlaps(found, lowered, has_orders, keywords=True)
    if set(found) <= {"notify"} and (has_orders or any_match(WEAK_ORDER_STATUS, lowered)):
        found.insert(0, "order_status")
    if not found and has_items:
        found = ["product_info"]
    return tuple(found) if found else (OUT_OF_SCOPE,)


def extract_slots(
    text: str, intents: Iterable[str], product_names: Iterable[str]
) -> dict[str, tuple[str, ...]]:
    """Order ids, e-mails, items, address, reason and payment method of the text."""
    lowered = text.lower()
    address = ADDRESS.search(text)
    wants_address = bool({"update_account", "modify_order"} & set(intents))
    wanted = _REPLACED_PAYMENT.sub(" ", text)
    payment = PAYMENT_ID.search(wanted)
    return {
        "order_ids": _order_ids(text),
        "emails": tuple(dict.fromkeys(EMAIL.findall(text))),
        "item_names": tuple(n for n in product_names if n.lower() in lowered),
        "address": _one(address.group(1).strip() if address and wants_address else None),
        "reason": _one(_first_key(CANCEL_REASONS, lowered)),
        "payment_method": _one(
            payment.group(1) if payment else _first_key(PAYMENT_WORDS, wanted.lower())
        ),
        "condition": _one(read_condition(text)),
    }


# "PayPal instead of the gift card", "not my gift card", "把礼品卡换成PayPal", "用PayPal代替礼品卡":
# the method named as the one to replace is not the one wanted.
_METHOD = r"(?:gift[ _]?card|paypal|credit[ _]?card|visa|mastercard|礼品卡|信用卡)(?:_\d+)?"
_REPLACED_PAYMENT = re.compile(
    rf"(?i)\b(?:instead of|rather than|in place of|not|no longer|don'?t use|do not use)\s+"
    rf"(?:(?:the|my|a|that|this)\s+)?{_METHOD}"
    rf"|(?:不用|别用|不要用|不想用|代替|替换|而不是)(?:我的|那张)?{_METHOD}"
    rf"|{_METHOD}(?=(?:换成|改成|换为|改为))"
)


# "Don't touch my account address, only change it on #W1", "leave my profile alone": the
# account named to be kept out of it is not where the change goes.
_NOT_THE_ACCOUNT = re.compile(
    r"\b(?:don'?t|do not|never|not)\b\s+(?:\w+\s+){0,2}(?:account|profile)\b"
    r"|\b(?:leave|keep)\s+(?:my |the )?(?:account|profile)\b"
    r"|(?:别|不要|不用|不是|不)(?:动|改|碰)?(?:我的)?(?:账户|账号|个人)"
)


def _resolve_overlaps(
    found: list[str],
    lowered: str,
    has_orders: bool,
    *,
    keywords: bool = False,
    arrived: bool = False,
) -> list[str]:
    """The labelling rules two readings of one request overlap by (LABELS.md); `arrived`:
    the whole message says something came."""
    drop: set[str] = set()
    on_account_words = _account_words(lowered)
    # "Change its address": a thing's address is an order's, never the customer's account.
    its = bool(_ITS_ADDRESS.search(lowered))
    # "Change the phone number on my account" changes no address, and no intent does it.
    if (
        "update_account" in found
        and _CONTACT.search(lowered)
        and not re.search(ADDRESS_CUE, _MAIL_ADDRESS.sub(" ", lowered))
    ):
        drop.add("update_account")
    # "我想换个登录邮箱": a login e-mail or password swapped is no item or order changed.
    if _LOGIN.search(lowered) and not re.search(ADDRESS_CUE, _MAIL_ADDRESS.sub(" ", lowered)):
        drop |= (
            {"update_account"}
            if names_product(lowered)
            else {"update_account", "exchange_items", "modify_order"}
        )
    # "烤架不要了，换成两个遮阳伞": an item given up for another is the order's change.
    if {"cancel_order", "modify_order"} <= set(found) and _REPLACED.search(lowered):
        drop.add("cancel_order")
    # "给我换个真人": a person asked for, no item swapped.
    if (
        "exchange_items" in found
        and "human_handoff" in found
        and _SWAP_FOR_A_PERSON.search(lowered)
    ):
        drop.add("exchange_items")
    # "Could you refund the lamp? It arrived yesterday": what came is no late delivery.
    if "delay_complaint" in found and received(lowered) and not _LATE.search(lowered):
        drop.add("delay_complaint")
    # "refund" inside a return/cancel request is part of that request.
    if {"return_items", "cancel_order"} & set(found) and not any_match(REFUND_QUESTION, lowered):
        drop.add("refund_status")
    # "这单我不要了，帮我退了吧": one request to undo the order, a cancel before it arrives and
    # a return once it has.
    if {"cancel_order", "return_items"} <= set(found):
        drop.add("cancel_order" if arrived or received(lowered) else "return_items")
    # An address change is the named order's, else the account's.
    # Both, when both are named and asked together ("默认地址改成…，那个订单也一起改").
    if "modify_order" in found and "update_account" in found:
        names_order = has_orders or its or any_match(ORDER_WORDS, lowered)
        on_account = on_account_words or not names_order
        if not (on_account_words and names_order and _TOGETHER.search(lowered)):
            drop.add("modify_order" if on_account else "update_account")
    # "Change its address" with an order named is that order's address.
    account_only = "update_account" in found and "modify_order" not in found
    if account_only and (has_orders or its) and not on_account_words:
        found = ["modify_order" if i == "update_account" else i for i in found]
    # The keyword rules read "track" in every lateness complaint: there it is the same ask.
    if keywords and "delay_complaint" in found:
        drop.add("track_shipment")
    # An item change's order state is the whole message's (`learned_intents`).
    return [i for i in found if i not in drop]


_ASKS_STATE = re.compile(
    r"\bwhere(?:'s|s| is| are|'re)? (?:all )?(?:my |the |this |that |our )?(?:\w+ )?orders?\b"
    r"|\bwhere(?:'s|s| is| are)? #?w\d|\border\b[^.?!]{0,24}(?:\bwhere\b|在哪|到哪)"
    r"|\b(?:status|state|shipped|dispatched|processing|processed|confirmed|on hold|placed"
    r"|delivered|went out|gone out|sent out|stuck)\b"
    r"|订单[^,.?!，。？！]{0,16}(?:在哪|到哪|去哪)|状态|进度|发货|发出|寄出|出库|签收|确认|处理|哪一步"
)
_WHERE = re.compile(r"\bwhere|\bwhereabouts\b|在哪|到哪|哪了|哪儿|哪里")
_ORDER_ASKED = re.compile(r"\borders?\b|订单|这单|那单|单子|这个单|那个单")
_PARCEL = re.compile(
    r"\b(?:package|parcel|shipment|delivery|box|stuff|tracking|scan(?:ned)?|stuck)\b"
    r"|快递|包裹|物流|单号|宝贝|东西|扫描|卡在"
)
_CONTACT = re.compile(
    r"\b(?:phone|mobile|cell|e-?mail|password|user ?name|nickname)\b|手机|电话|邮箱|密码|昵称|用户名"
)
_LOGIN = re.compile(
    r"\b(?:log-?in|sign-?in|password|user ?name|phone number|e-?mail address)\b|邮箱|密码|登录|用户名|昵称|手机号|电话号码"
)
_ITS_ADDRESS = re.compile(r"\bits (?:shipping |delivery )?address\b|它的(?:收货)?地址")
_TOGETHER = re.compile(r"\b(?:too|as well|also|both|same)\b|\band (?:on|to|for)\b|也|一起|同时|都")


def _account_words(lowered: str) -> bool:
    """Whether `lowered` names the account as where a change goes."""
    return any_match(ACCOUNT_WORDS, _NOT_THE_ACCOUNT.sub(" ", lowered))


def _account_only(lowered: str) -> bool:
    """Whether `lowered` speaks of the account and of no order."""
    named = ORDER_ID.search(lowered) or any_match(ORDER_WORDS, lowered)
    return not named and _account_words(lowered)


# A question somewhere in a message: "the skateboard, is it for beginners or …".
_ASKS = re.compile(
    r"[?？]|(?:^|[,，.;]\s*)(?:is|are|does|do|can|could|how|what|which|will|would)\b"
    r"|吗|多少|哪|什么|怎么|有没有|能不能|是不是"
)
_FRAGMENT = 4
_OWN_USER_ID = re.compile(OWN_USER_ID)
_USER_ID = re.compile(USER_ID)


def _without_the_id(own: re.Match[str]) -> str:
    return _USER_ID.sub(" ", own.group())


def _bulk_write(lowered: str) -> bool:
    return any_match(BULK_SCOPE, lowered) and any_match(BULK_WRITE_VERBS, lowered)


def _first_key(table: dict[str, tuple[str, ...]], lowered: str) -> str | None:
    return next((key for key, patterns in table.items() if any_match(patterns, lowered)), None)


def _blank(patterns: Iterable[str], lowered: str) -> str:
    for pattern in patterns:
        lowered = compiled(pattern).sub(" ", lowered)
    return lowered


def _one(value: str | None) -> tuple[str, ...]:
    return (value,) if value else ()
