"""Paraphrase layers over a filled template: politeness, slang, Chinese/English mixing,
typos, dropped punctuation and letter case. None of them changes what a message asks for,
so none changes its labels."""

from __future__ import annotations

import random
import re

from nodes.language import Lang

# fmt: off
PREFIX_EN = (
    "hi, ", "hello, ", "hey ", "hi there! ", "excuse me, ", "quick question: ", "um, ",
    "so ", "ok ", "yo ", "good morning, ", "sorry, ", "one more thing: ", "btw ", "hello again, ",
)
PREFIX_EN_COMMAND = ("please ", "pls ", "ok so ", "hey, ")
SUFFIX_EN = (
    " please", ", thanks", " thx", " ty", ", thank you!", " :)", "!!", ", cheers",
    " right now", " asap", " for me", " real quick", " again", " at the moment", " with you guys",
    "??", " lol", ", appreciate it",
)
PREFIX_ZH = (
    "亲，", "你好，", "您好，", "在吗？", "那个，", "嗯，", "你好，我想问下，",
    "请问", "麻烦问下，", "打扰一下，", "辛苦了～ ", "对了，", "客服你好，", "哈喽，",
)
PREFIX_ZH_COMMAND = ("麻烦", "请", "麻烦你", "帮忙")
SUFFIX_ZH = (
    "，谢谢", "，谢啦", "，辛苦了", "呀", "哈", "～", "，多谢", "，急！",
    "啊", "呢", "吧", "，急用", "，在线等", "，麻烦快点", "？？", "，谢谢亲",
)
# fmt: on
SLANG_EN = (
    (r"\byou\b", "u"),
    (r"\byour\b", "ur"),
    (r"\bplease\b", "pls"),
    (r"\bthanks\b", "thx"),
    (r"\bwhat's\b", "whats"),
    (r"\bwhere's\b", "wheres"),
    (r"\bI want to\b", "i wanna"),
    (r"\bgoing to\b", "gonna"),
    (r"\bdon't\b", "dont"),
    (r"\bhasn't\b", "hasnt"),
    (r"\bbecause\b", "cuz"),
    (r"\bare\b", "r"),
    (r"\bright now\b", "rn"),
    (r"\bplease\b", "plz"),
    (r"\bwhat\b", "wat"),
)
COLLOQUIAL_ZH = (("什么", "啥"), ("怎么", "咋"), ("一下", "下"), ("没有", "没"), ("了吗", "了没"))
# The English a bilingual customer drops into a Chinese sentence ("帮我cancel一下").
MIX_ZH = (
    ("取消", "cancel"),
    ("退货", "return"),
    ("退款", "refund"),
    ("订单", "order"),
    ("包裹", "package"),
    ("地址", "address"),
    ("换货", "exchange"),
    ("物流", "tracking"),
    ("邮件", "email"),
    ("邮箱", "email"),
    ("人工客服", "human"),
    ("付款方式", "payment"),
    ("账户", "account"),
    ("发货", "ship"),
    ("状态", "status"),
    ("价格", "price"),
    ("尺码", "size"),
    ("政策", "policy"),
    ("快递单号", "tracking number"),
    ("收据", "receipt"),
    ("确认邮件", "confirmation email"),
    ("发票", "invoice"),
    ("默认", "default"),
    ("有货", "in stock"),
    ("颜色", "color"),
    ("人工", "agent"),
)
# The Chinese a bilingual customer puts around an English request ("hi亲 where is my order").
AROUND_EN = (("亲 ", ""), ("hi亲 ", ""), ("你好，", ""), ("", " 谢谢"), ("", "哈"), ("", "，急"))
WORD = re.compile(r"(?<![\w#@_])[A-Za-z]{4,}(?![\w@_])")


def paraphrase(text: str, lang: Lang, commands: bool, rng: random.Random) -> str:
    """`text` through every layer, each applied to a fraction of messages."""
    text = polite(text, lang, commands, rng)
    if lang == "en":
        text = slang(text, rng) if rng.random() < 0.2 else text
        text = typos(text, rng) if rng.random() < 0.25 else text
        if rng.random() < 0.04:
            before, after = rng.choice(AROUND_EN)
            text = before + text + after
    else:
        text = colloquial(text, rng) if rng.random() < 0.25 else text
        text = mix(text, rng) if rng.random() < 0.25 else text
    text = punctuation(text, rng)
    return case(text, rng) if lang == "en" else text


def polite(text: str, lang: Lang, commands: bool, rng: random.Random) -> str:
    """A greeting or "please" before, thanks after, on some messages."""
    prefixes: tuple[str, ...] = PREFIX_EN if lang == "en" else PREFIX_ZH
    if commands:
        prefixes += PREFIX_EN_COMMAND if lang == "en" else PREFIX_ZH_COMMAND
    if rng.random() < 0.3:
        text = rng.choice(prefixes) + text
    if rng.random() < 0.25:
        text = text.rstrip("?.!？。！") + rng.choice(SUFFIX_EN if lang == "en" else SUFFIX_ZH)
    return text


def slang(text: str, rng: random.Random) -> str:
    """Chat spellings ("u", "pls", "wanna") for some of the words that have one."""
    for pattern, short in SLANG_EN:
        if rng.random() < 0.6:
            text = re.sub(pattern, short, text, flags=re.IGNORECASE)
    return text


def colloquial(text: str, rng: random.Random) -> str:
    """Spoken Chinese forms ("啥", "咋") for some of the words that have one."""
    for formal, spoken in COLLOQUIAL_ZH:
        if formal in text and rng.random() < 0.6:
            text = text.replace(formal, spoken, 1)
    return text


def mix(text: str, rng: random.Random) -> str:
    """One or two Chinese terms replaced by the English word for them."""
    present = [pair for pair in MIX_ZH if pair[0] in text]
    for zh, en in rng.sample(present, min(len(present), rng.choice((1, 1, 2)))):
        text = text.replace(zh, en, 1)
    return text


def typos(text: str, rng: random.Random) -> str:
    """Some longer plain words misspelt by a dropped, doubled or swapped letter (order ids,
    payment ids and e-mail addresses are left alone: they hold digits, #, _ or @)."""

    def slip(match: re.Match[str]) -> str:
        word = match.group(0)
        if rng.random() >= 0.12:
            return word
        at = rng.randrange(1, len(word) - 1)
        kind = rng.randrange(3)
        if kind == 0:
            return word[:at] + word[at + 1 :]
        if kind == 1:
            return word[:at] + word[at] + word[at:]
        return word[:at] + word[at + 1] + word[at] + word[at + 2 :]

    return WORD.sub(slip, text)


def punctuation(text: str, rng: random.Random) -> str:
    """The final mark dropped on some messages, every ?/! on a few more; Chinese commas
    typed as spaces on some ("这单不要了 取消吧")."""
    if "，" in text and rng.random() < 0.15:
        text = text.replace("，", " ")
    roll = rng.random()
    if roll < 0.25:
        return text.rstrip("?.!？。！～")
    if roll < 0.32:
        return re.sub(r"[?!？！。]", "", text)
    return text


def case(text: str, rng: random.Random) -> str:
    """English letter case as people type it: mostly as written or capitalised."""
    roll = rng.random()
    if roll < 0.45:
        return text[:1].upper() + text[1:]
    if roll < 0.48:
        return text.upper()
    return text


# The order a request speaks of, named without its id: customers say "it" or "my order"
# as often as "#W1234567", and a clause of a longer message rarely repeats the id.
# "Where is it?" asks for a parcel, "where is my order?" for the order too (LABELS.md): an
# order asked where it is keeps a noun.
UNNAMED_EN = (
    (r"\b(?:my |the )?order (?:number |no\. ?)?\{order\}", ("my order", "the order", "this order")),
    (
        r"(?<=\bwhere is )\{order\}|(?<=\bwhere's )\{order\}",
        ("my order", "this order", "the order"),
    ),
    (r"\{order\}", ("it", "this order", "my order", "that one")),
)
UNNAMED_ZH = (
    (r"(?:我的)?订单(?:号)?\{order\}", ("这个订单", "我的订单", "那个订单")),
    (r"\{order\}(?=(?:现在)?(?:在哪|到哪))", ("这单", "这个订单", "那单")),
    (r"\{order\}", ("这单", "这个订单", "它", "那单")),
)


def unnamed(template: str, lang: Lang, rng: random.Random) -> str:
    """`template` with its one order named without the id (one with two orders keeps both)."""
    if "{order2}" in template:
        return template
    for pattern, words in UNNAMED_EN if lang == "en" else UNNAMED_ZH:
        template = re.sub(pattern, rng.choice(words), template)
    return template


# The id put after the request, as customers add it once they have said what they want
# ("这单不要了 取消吧 W1234567", "return the lamp please. order #W1234567").
TRAILING_EN = (" {order}", ". order {order}", " - {order}", ", order number {order}", " ({order})")
TRAILING_ZH = (" {order}", " 订单{order}", "，订单号{order}", "。{order}", " 单号{order}")


def trailing(template: str, lang: Lang, rng: random.Random) -> str:
    """`template` with its one order named by a pronoun and its id after the request."""
    if "{order2}" in template or "{order}" not in template:
        return template
    said = unnamed(template, lang, rng).rstrip()
    end = rng.choice(TRAILING_EN if lang == "en" else TRAILING_ZH)
    if said[-1:] in "?？!！.。" and end[:1] in ",，.。":
        end = " " + end.lstrip(",，.。 ")  # "where is it? order number #W1"
    return said + end
