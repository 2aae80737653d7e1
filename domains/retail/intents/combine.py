"""Messages built from several clauses: several requests (the union of their labels), a
withdrawal next to a request (the request's labels only) and small talk around a request
(the request's labels)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from domains.retail.intents.group import Group
from domains.retail.intents.slots import fill
from nodes.language import Lang

Clause = tuple[str, tuple[str, ...]]
"""A filled clause and its sorted labels."""

# Before a clause that asks for something to be done / one that asks a question.
# The bare ones (a comma, a full stop, a space) join requests as customers run them
# together with no connective ("晚了三天了，帮我取消吧", "cancel it, where's my refund").
JOIN_COMMAND = {
    "en": (
        " and ",
        " and then ",
        ", then ",
        ". Also, ",
        " and also ",
        "; also ",
        ". Then ",
        ", ",
        ". ",
    ),
    "zh": (
        "，顺便",
        "，再",
        "，然后",
        "。另外，",
        "，还有，",
        "，同时",
        "，另外再",
        "，",
        "。",
        " ",
    ),
}
JOIN_QUESTION = {
    "en": (". Also, ", " and ", ", also ", ". Oh and ", ". And ", ". Plus, ", ", ", ". "),
    "zh": (
        "，顺便问一下，",
        "。另外，",
        "，还有，",
        "。还想问下，",
        "，再问一下，",
        "，另外",
        "，",
        "。",
        " ",
    ),
}
# After a withdrawal, before a command / before a question.
AFTER_WITHDRAWAL = {
    "en": (". ", ", instead ", " - ", ". Instead, ", "; "),
    "zh": ("，", "。", "，就"),
}
AFTER_WITHDRAWAL_Q = {"en": (". ", ", but ", " - "), "zh": ("，", "。", "，我就想问")}
# What customers add around a request that asks nothing: urgency, apology, who placed it.
CONTEXT = {
    "en": (
        "it's kind of urgent",
        "sorry for the trouble",
        "this is my first order with you",
        "I'm on my phone, sorry for typos",
        "I asked yesterday but nobody answered",
        "I'm travelling next week",
        "my partner placed it on my account",
        "I need this sorted today",
        "your website wasn't helping",
        "the app keeps crashing so I'm asking here",
        "I already wrote to you twice",
        "my last e-mail went unanswered",
    ),
    "zh": (
        "挺急的",
        "麻烦了",
        "第一次在你们家买",
        "手机打字，见谅",
        "昨天问了没人回",
        "我下周要出差",
        "是我家人用我账号下的单",
        "今天能处理最好",
        "网站上弄不了，只好来问",
        "APP一直闪退",
        "之前发的邮件没人回",
        "找了半天客服",
    ),
}
AROUND = {"en": (", ", ". ", " - "), "zh": ("，", "。", " ")}
SEND_OFF = {
    "en": (" Thanks a lot!", " Have a great day.", " Cheers!", " Thank you so much."),
    "zh": ("谢谢！", "辛苦啦。", "谢谢你哦。", "麻烦了～"),
}


def clause(group: Group, lang: Lang, rng: random.Random) -> Clause:
    """One of the group's templates, filled."""
    return fill(rng.choice(group.texts), lang, rng), group.intents


def several(groups: Sequence[Group], lang: Lang, rng: random.Random) -> Clause:
    """Two or three requests of different intents in one message: the union of their labels."""
    names = sorted({intent for group in groups for intent in group.intents})
    # Intent first, then one of its groups: writes have more groups than reads.
    chosen = rng.sample(names, rng.choice((2, 2, 2, 3)))
    picked = [rng.choice([g for g in groups if want in g.intents]) for want in chosen]
    text, intents = clause(picked[0], lang, rng)
    labels = set(intents)
    for following in picked[1:]:
        part, intents = clause(following, lang, rng)
        joins = JOIN_COMMAND if following.commands else JOIN_QUESTION
        text = text.rstrip("?.!？。！") + rng.choice(joins[lang]) + part
        labels.update(intents)
    return text, tuple(sorted(labels))


def withdrawn(
    withdrawals: Sequence[tuple[str, str]], groups: Sequence[Group], lang: Lang, rng: random.Random
) -> Clause:
    """A withdrawal before or after a request of another intent: the request's labels."""
    blocked, withdrawal = rng.choice(withdrawals)
    request = rng.choice([g for g in groups if not set(blocked.split()) & set(g.intents)])
    said = fill(withdrawal, lang, rng)
    text, intents = clause(request, lang, rng)
    if rng.random() < 0.7:
        joins = AFTER_WITHDRAWAL if request.commands else AFTER_WITHDRAWAL_Q
        return said.rstrip(",，") + rng.choice(joins[lang]) + text, intents
    tail = (" but " if lang == "en" else "，不过") + said.rstrip(",，")
    return text.rstrip("?.!？。！") + tail, intents


def chatted(
    openers: Sequence[str], groups: Sequence[Group], lang: Lang, rng: random.Random
) -> Clause:
    """Small talk before a request, or thanks after it: the request's labels."""
    text, intents = clause(rng.choice(groups), lang, rng)
    roll = rng.random()
    if roll < 0.45:
        opener = fill(rng.choice(openers), lang, rng)
        return opener + (" " if lang == "en" else "") + text, intents
    if roll < 0.75:
        said = rng.choice(CONTEXT[lang])
        if rng.random() < 0.5:  # before the request, or after it
            return said + rng.choice(AROUND[lang]) + text, intents
        return text.rstrip("?.!？。！") + rng.choice(AROUND[lang]) + said, intents
    end = "" if text[-1:] in "?.!？。！" else ("." if lang == "en" else "。")
    return text + end + rng.choice(SEND_OFF[lang]), intents
