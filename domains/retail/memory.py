"""Retail long-term memory: which stable facts a customer states, and what they change.

Facts: the refund method they prefer, the channel to contact them on, the
language to answer in. Only a lasting statement ("from now on", "always",
"I prefer", "以后") is a fact; a one-off command ("refund to my gift card")
or a guess ("maybe paypal") is not. A remembered refund method is used by a
return when policy allows it (`domains.retail.planning.binding`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from domains.retail.vocabulary import PAYMENT_WORDS
from nodes.contracts import Plan, Task, Understanding
from nodes.memory.facts import Fact

REFUND_METHOD, CONTACT, LANGUAGE = "refund_method", "contact_channel", "language"
RETURN_SKILL = "return_delivered_order_items_v1"
ORIGINAL = "bind:order_payment"
PREFERRED = "bind:preferred_payment:"
_LASTING = re.compile(
    r"from now on|going forward|in (?:the )?future|\balways\b|\bi prefer\b|\bprefer(?:red)?\b"
    r"|\bby default\b|\bevery time\b|以后|今后|总是|默认|一直"
)
_GUESS = re.compile(r"\bmaybe\b|\bperhaps\b|\bi think\b|\bnot sure\b|\bprobably\b|可能|也许|大概")
_REFUND = re.compile(r"\brefund|退款|退到|退回")
_CONTACT = {
    "email": re.compile(r"\be-?mail\b|邮件|邮箱"),
    "phone": re.compile(r"\bphone\b|\bcall me\b|电话"),
    "sms": re.compile(r"\bsms\b|\btext message|短信"),
}
_CONTACT_ASK = re.compile(r"\bcontact me\b|\breach me\b|联系我|通知我")
_LANGUAGES = {
    "zh": re.compile(r"\bin chinese\b|\bin mandarin\b|用中文|说中文"),
    "en": re.compile(r"\bin english\b|用英文|用英语"),
}
_WORDS = {"gift_card": "gift card", "paypal": "PayPal", "credit_card": "credit card",
          "email": "e-mail", "phone": "phone", "sms": "text message",
          "zh": "Chinese", "en": "English"}  # fmt: skip
_WORDS_ZH = {"gift_card": "礼品卡", "paypal": "PayPal", "credit_card": "信用卡",
             "email": "邮件", "phone": "电话", "sms": "短信", "zh": "中文", "en": "英文"}  # fmt: skip
_RELEVANT = {REFUND_METHOD: ("return_items", "cancel_order", "refund_status", "exchange_items")}


class RetailMemory:
    """The retail `DomainMemory`."""

    def facts(self, understanding: Understanding) -> list[Fact]:
        text = understanding.text.lower()
        importance = 0.1 if _GUESS.search(text) else 0.9 if _LASTING.search(text) else 0.3
        return [Fact(key, value, importance) for key, value in _stated(text)]

    def relevance(self, key: str, understanding: Understanding) -> float:
        if key == LANGUAGE:
            return 0.8
        wanted = _RELEVANT.get(key, ())
        return 1.0 if set(wanted) & set(understanding.intents) else 0.3

    def acknowledge(self, fact: Fact, lang: str) -> str:
        if lang == "zh":
            return f"好的，我已记下：{_what_zh(fact)}。"
        return f"Noted: from now on {_what(fact)}."

    def apply(self, plan: Plan, remembered: Mapping[str, str], user_id: str) -> Plan:
        kind = remembered.get(REFUND_METHOD)
        if kind not in PAYMENT_WORDS or not any(_uses_original(t) for t in plan.tasks):
            return plan
        user = next((t.id for t in plan.tasks if t.skill == "get_user_details_v1"), None)
        tasks = list(plan.tasks)
        if user is None:
            user = _free_id(plan)
            tasks.insert(0, Task(id=user, role="order_query", skill="get_user_details_v1",
                                 args={"user_id": user_id}))  # fmt: skip
        tasks = [_preferring(t, kind, user) if _uses_original(t) else t for t in tasks]
        return plan.model_copy(update={"tasks": tuple(tasks)})


def _stated(text: str) -> list[tuple[str, str]]:
    found = []
    if _REFUND.search(text):
        kind = next(
            (k for k, ws in PAYMENT_WORDS.items() if any(re.search(w, text) for w in ws)), None
        )
        if kind:
            found.append((REFUND_METHOD, kind))
    if _CONTACT_ASK.search(text):
        channel = next((c for c, p in _CONTACT.items() if p.search(text)), None)
        if channel:
            found.append((CONTACT, channel))
    lang = next((lang for lang, p in _LANGUAGES.items() if p.search(text)), None)
    if lang:
        found.append((LANGUAGE, lang))
    return found


def _what(fact: Fact) -> str:
    word = _WORDS.get(fact.value, fact.value)
    if fact.key == REFUND_METHOD:
        return f"refunds go to your {word} where our policy allows it"
    if fact.key == CONTACT:
        return f"we contact you by {word}"
    return f"we answer you in {word}"


def _what_zh(fact: Fact) -> str:
    word = _WORDS_ZH.get(fact.value, fact.value)
    if fact.key == REFUND_METHOD:
        return f"以后在政策允许时退款退到您的{word}"
    if fact.key == CONTACT:
        return f"以后通过{word}联系您"
    return f"以后用{word}回复您"


def _uses_original(task: Task) -> bool:
    return task.skill == RETURN_SKILL and task.args.get("payment_method_id") == ORIGINAL


def _preferring(task: Task, kind: str, user: str) -> Task:
    args = {**task.args, "payment_method_id": PREFERRED + kind}
    deps = task.depends_on if user in task.depends_on else (*task.depends_on, user)
    return task.model_copy(update={"args": args, "depends_on": deps})


def _free_id(plan: Plan) -> str:
    taken = {t.id for t in plan.tasks}
    return next(f"m{n}" for n in range(1, len(taken) + 2) if f"m{n}" not in taken)
