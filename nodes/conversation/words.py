"""How customers answer a question and point back at what was said, in English and Chinese.

These are words of the languages, not of any business: a domain's records are
matched through the options it offers (`Option.words`), never through lists here.
Every pattern is matched on normalised, lower-cased text.
"""

from __future__ import annotations

import re

_YES_EN = (
    r"yes|yeah|yep|yup|ya|sure|ok|okay|k|confirm(?:ed)?|correct|right|proceed|go ahead"
    r"|do it|please do|absolutely|of course|definitely|that'?s (?:right|correct|fine)"
    r"|sounds good|fine|alright|all right|i confirm|yes i confirm"
)
_YES_ZH = r"是|是的|对|对的|好|好的|好吧|嗯|嗯嗯|确认|确定|可以|行|没问题|同意|继续|请继续|就这样"

# After the first yes, each word once: "嗯嗯" is 嗯 twice, "好吧" 好 and 吧, "请继续" 请 and 继续,
# "go ahead" a yes, not also a filler. Words two ways apart made "嗯" * 32 + "x" try every
# split of the run (exponentially many) before failing; the separator is possessive too.
_YES_EN_MORE = _YES_EN.replace("|yes i confirm", "")
_YES_ZH_MORE = r"是|是的|对|对的|好|好的|嗯|确认|确定|可以|行|没问题|同意|继续|就这样"
_FILLER = r"please|thanks|thank you|请|谢谢|吧|啊|呀"

YES = re.compile(
    rf"^(?:{_YES_EN}|{_YES_ZH})"
    rf"(?:[\s,，.。!！]*+(?:{_YES_EN_MORE}|{_YES_ZH_MORE}|{_FILLER}))*[\s,，.。!！]*$"
)
"""A whole message that says yes and nothing else."""

YES_LEAD = re.compile(rf"^(?:{_YES_EN}|{_YES_ZH})\b[\s,，.。!！]*|^(?:{_YES_ZH})[\s,，.。!！]*")
"""A message that starts by saying yes ("yes, cancel it")."""

AMEND = re.compile(
    r"\b(?:only|except|instead|rather|but not|apart from|excluding)\b"
    r"|只|而是|换成|改成|改为|退到|退回到|退至|除了"
)
"""Words after a yes that change what was stated ("yes, but only the lamp", "好的，只退相机")."""

ALSO = re.compile(
    r"\b(?:also|as well|too|plus|additionally|by the way|btw|and then|one more thing)\b"
    r"|另外|还有|顺便|此外|再帮我|也帮我"
)
"""Words after a yes that add a request of their own ("yes. also, where is …?")."""

NO = re.compile(
    r"^(?:(?:actually|wait|hmm+|oh|sorry|well|on second thoughts?|其实|哦|嗯|那个)[\s,，.。]*)*"
    r"(?:no|nope|nah|not now|not yet|never ?mind|forget it|don'?t|do not|stop|hold on"
    r"|i(?:'ve| have)? changed my mind|changed my mind|i do not want|i don'?t want"
    r"|不|不要|不用|别|算了|先不|等等|不是|改主意)(?:\b|(?=[\s,，.。!！了吧啦]|$))"
    # "先不退了", "不取消了": Chinese puts the verb it declines between 不 and 了.
    r"|^(?:先|还是|暂时)?(?:不|别)(?:再|要)?(?:退|取消|换|改|修改|要|买|弄|办)\S{0,2}?了"
)
"""A message that starts by saying no (or not now)."""

REFERENCE = re.compile(
    r"\b(?:it|its|that|this|them|they|those|these|same)\b|\bthe (?:order|one|package|parcel)\b"
    r"|它|这个|那个|这笔|那笔|这单|那单|刚才|刚刚|上一个|之前那个|另一个|另外"
    r"|[这那]一[单笔个]"
)
"""Words pointing back at something the conversation named."""

CORRECTION = re.compile(
    r"\b(?:i meant|i mean|i meant to say|meant to (?:say|write|type)|sorry|oops|whoops|my bad"
    r"|wrong (?:order|one|number|id)|typo|mistyped|not that one|i mixed up|correction"
    r"|my mistake|should (?:be|have been|read))\b"
    r"|^\W*#?[a-z]?\d{5,}\W*$"
    r"|说错|打错|写错|输错|搞错|弄错|看错|应该是|我是说|我指的是|我说的是|不是这个|更正"
)
"""A message correcting what the customer said before ("sorry, I meant …", "我说错了")."""

SOME_ZH = re.compile(r"一个|一笔|一单|哪个|哪一|哪些|某个|某一|所有|全部|每个|每一|其他|别的|另")
"""Chinese words counting records rather than pointing at one ("一个订单", "哪个")."""

OTHER = re.compile(r"\b(?:the )?other (?:one|order)\b|\banother one\b|另一个|另外(?:那|一)个")
"""Pointing at the one named before the latest ("the other one")."""

_ORDINALS_EN = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
    "fifth": 5, "5th": 5, "sixth": 6, "6th": 6, "last": -1,
}  # fmt: skip
_ORDINALS_ZH = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_ORDINAL_EN = re.compile(rf"\b({'|'.join(_ORDINALS_EN)})\b")
_ORDINAL_ZH = re.compile(r"第\s*([一二两三四五六]|\d)\s*[个笔单项]?|最后(?:一|那)?[个笔单]")
POSITION = re.compile(
    rf"\b(?:{'|'.join(_ORDINALS_EN)})\s+(?:one|order|item|package|parcel)s?\b"
    r"|第\s*(?:[一二两三四五六]|\d)\s*[个笔单项]|最后(?:一|那)?[个笔单]"
)
"""A position that names what it counts ("the second order", "第三个", "the last one")."""
_NUMBER_ONLY = re.compile(r"^\s*(?:#|no\.?\s*|number\s*|option\s*)?(\d)\s*[.)。]?\s*$")


def ordinal(lowered: str) -> int | None:
    """The position a reply picks ("the second one" -> 2, "第三个" -> 3, "last" -> -1), else None."""
    if match := _NUMBER_ONLY.match(lowered):
        return int(match.group(1))
    if match := _ORDINAL_ZH.search(lowered):
        if match.group(0).startswith("最后"):
            return -1
        digit = match.group(1)
        return int(digit) if digit.isdigit() else _ORDINALS_ZH[digit]
    if match := _ORDINAL_EN.search(lowered):
        return _ORDINALS_EN[match.group(1)]
    return None


_GREETING = (
    r"hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening)|greetings|你好|您好|嗨|哈喽|早上好"
    r"|下午好|晚上好|在吗"
)
_THANKS = r"thanks|thank you|thx|cheers|much appreciated|谢谢|多谢|感谢|谢啦"
_BYE = r"bye|goodbye|see you|that'?s all|nothing else|再见|拜拜|没有了|没事了"
_TAIL = r"(?:[\s,，.。!！?？~]*(?:there|so much|a lot|very much|again|for (?:your|the) help|您|你|啦|了|呀|啊))*"
SMALL_TALK: dict[str, re.Pattern[str]] = {
    kind: re.compile(rf"^(?:(?:{words}){_TAIL}[\s,，.。!！?？~]*)+$")
    for kind, words in (("greeting", _GREETING), ("thanks", _THANKS), ("bye", _BYE))
}
"""A whole message that only greets, thanks or says goodbye."""
