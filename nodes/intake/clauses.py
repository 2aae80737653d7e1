"""Clauses and their speech acts, in English and Chinese.

A message may hold several requests ("cancel #W1 and also track #W2",
"查下订单顺便发邮件"), a condition ("if it hasn't shipped yet, cancel it",
"要是还没发货就取消") or a question that names an action without asking for
it ("was it cancelled?", "退了吗"). Each clause gets its own reading; a
condition gates the request it belongs to and asks nothing itself; a question
about state never reads as the action it names.

This is the structure of the language, not of a domain: which words are
actions and what a state question reads as instead are the domain's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Act = Literal["command", "question", "conditional"]

# Where one request ends and the next begins. The Chinese connectives are
# kept with the clause they open, so "顺便发邮件" still reads as a request. A dash
# before a question does not: what comes before it is the topic the question asks
# about ("refund for #W1 - how much and when?", "my return - has it arrived?"), no
# request of its own ("don't cancel it - change the address instead" is two).
_BOUNDARY = re.compile(
    r"(?<=[?？!！;；。\n])\s*|(?<=[a-z0-9)]\.)\s+"
    # A Chinese question typed without its mark ends at its particle: "发货了吗 if not 就取消".
    r"|(?<=[吗呢])\s+|(?<=了没)\s+"
    r"|\s+[-–—]+\s+(?!(?:how|what|when|where|why|which|who|is|are|was|were|has|have|had"
    r"|did|does|do|any|done)\b)"
    r"|,?\s*\b(?:and also|and then|also|then|plus|after that|afterwards|as well as|besides that)\b\s*"
    r"|,\s*(?:and|but)\s+"
    r"|(?<=[^\s,，])\s+(?:and|but)\s+(?=(?:please |pls |can you |could you |also )?"
    r"(?:cancel|track|return|exchange|change|update|modify|check|tell|send|email|e-mail|notify|show|look|where|what|when|why|how|which|who|will|does|is|was|has|did"
    # "a return and refund" is one request; "… and refund me the difference" another.
    r"|refund(?!\s*[.!?。！？]*\s*$))\b)"
    r"|(?=顺便|另外|还有|然后|同时|并且|再帮|再给|再把|再发|再查|再看)"
    # "帮我取消W1吧 不对 先别取消", "退了吧 算了": a Chinese taking back between spaces opens
    # its own clause; "size 不对" says what is wrong.
    r"|\s+(?=算了(?:\s|[,，。!！]|$))|(?<=[吧了啊呀哦\d])\s+(?=(?:不对|等一下)(?:\s|[,，。!！]|$))",
    re.IGNORECASE,
)
# A condition ends at its first comma, or at 就/那就/的话 in Chinese.
# "If you could …", "wondering if", "check if it shipped" ask politely or
# indirectly; they gate nothing.
_CONDITION_START = re.compile(
    r"(?<!wondering )(?<!see )(?<!check )(?<!know )(?<!me )(?<!ask )(?<!sure )(?<!whether )"
    r"\b(?:if|unless|as long as|only if|provided(?: that)?|in case|assuming)\b"
    r"(?! (?:you|u) (?:could|can|would|will|don'?t mind|please)\b)"
    r"|如果|要是|假如|假设|万一|只要|除非|若是",
    re.IGNORECASE,
)
# "如果还没发货能不能取消": a Chinese condition also ends where a request begins.
_CONDITION_END = re.compile(
    r"\s*[,，]\s*|(?<=的话)|\s*(?=那就|就|能不能|能否|可不可以|可以帮|帮我|麻烦|请)"
)
_COMMA = re.compile(r"\s*[,，]\s*")
# "…shipped, and if so what's the tracking number": a condition that only points back is
# whole in a word, and what follows it is the request it gates, comma or not.
_POINTING_BACK = re.compile(
    r"\s+(?:so|yes|not|possible|that'?s (?:the case|true|right))\b\s*"
    r"(?=(?:what|when|where|how|which|who|why|is|are|can|could|would|will|please|pls|just|then"
    r"|send|give|tell|cancel|e-?mail|track|return|refund|change|let|show|i)\b)",
    re.IGNORECASE,
)
# A condition with no comma that goes on to ask something ("if it's pending cancel it",
# "if it shipped just give me the tracking number").
_LATER_REQUEST = re.compile(
    r"\b(?:if|unless|in case|as long as|assuming)\b.*?\s(?:just |then |please |pls )?"
    r"(?:cancel|return|exchange|change|send|give|tell|email|e-mail|refund|ship|pay|update|switch|swap|let|make|notify|start|track)\b",
    re.IGNORECASE,
)
_LATER_CONDITION = re.compile(
    r"[^,，]*?(?:的话|\b(?:if|unless|in case)\b|如果|要是|假如|万一)", re.IGNORECASE
)
_QUESTION_END = re.compile(
    r"[?？]\s*$|(?:吗|呢|么|嘛|没|没有|了没|没呢"
    r"|怎样的?|怎么样|是什么|是多少|多少钱|多久|几天|哪些|哪个|哪里|哪儿)\s*[?？]?\s*$"
)
# A Chinese question word inside the clause: "退了多少", "退到哪张卡了", "什么时候到", "多久能退".
_QUESTION_WORD_ZH = re.compile(r"多少|多久|哪[张个里儿些天家位一]|什么时候|啥时候|几时|为什么|为啥")
_QUESTION_START = re.compile(
    r"^\s*(?:is|are|was|were|has|have|had|did|does|do|will|when|where|what|why|how|which|whats|what's|where's|wheres)\b"
)
# Asking somebody to do something is a request however it is phrased.
_REQUEST = re.compile(
    r"\b(?:can|could) (?:you|u|i|we)\b|\b(?:will|would) (?:you|u)\b|\b(?:will|would) (?:i|we) be able to\b|\bplease\b|\bpls\b|\bi(?:'d| would) like\b"
    r"|(?<!would )(?<!will )(?<!do )\bi (?:want|need|wanna)\b|\blet me\b|\bhelp me\b|\b(?:is|would) it (?:be )?possible\b"
    r"|\bany chance\b|\b(?:would|do) you mind\b|\bmind \w+ing\b|\bwondering if\b|\bhow about\b"
    # "Email me once it ships, ok?": a request with a tag asking to agree is still one.
    r"|(?:[,，]|(?<=[\u4e00-\u9fff]))\s*(?:ok|okay|alright)\s*[?？]+\s*$|\b(?:pls|please)\s*[?？]+\s*$"
    r"|(?:好吗|行吗|好不好|行不行|成吗)\s*[?？]*\s*$"
    # "Is it too late to cancel #W1?": whether there is still time asks for it.
    r"|\b(?:is it|am i|are we) (?:too late|still (?:possible|ok|okay|in time)) to\b|\bstill time to\b|来得及"
    r"|能不能|能否|可不可以|可以帮|能帮|帮我|帮忙|麻烦|(?<![申邀聘])请(?!问)|我要|我想|给我|告诉我|方便|(?:可以|行|好)(?:吗|嘛|么)|(?:能|可以)[^了过，。？！,.?!]{1,40}?(?:吗|嘛|么)"
    r"|\b(?:can|could)\b[^?.!,]{1,60}?\bbe (?:\w+ed|a|an|the|sent|made)\b"
    # "How do I send back the lamp?", "这个台灯怎么退?": how to do it, to a thing of one's own.
    r"|\bhow (?:do|can|should|would) (?:i|we) (?:\w+ ){0,4}?(?:it|them|this|that|these|those|my|the|order|#?w\d)"
    # "Swap possible?": a request asked as whether it can be done.
    r"|^\s*(?:\w+ ){1,2}possible\s*[?？]?\s*$"
    r"|(?:这个|那个|这件|那件|这单|那单|我的|我买的|收到的)[^？?。!！]{0,24}怎么(?:申请|办理)?(?:退|换|取消|改)"
)


_ID_LIKE = re.compile(r"[#A-Za-z0-9_-]*\d[A-Za-z0-9_-]*")
_WORDY = re.compile(r"[A-Za-z\u4e00-\u9fff]")


@dataclass(frozen=True)
class Clause:
    """One request, question or condition of a message."""

    text: str
    act: Act
    context: str = ""
    """What the clause is read with: a request and the condition gating it, whole
    ("if my refund is done, tell me when it reaches my card" asks about the refund)."""

    @property
    def reading(self) -> str:
        return self.context or self.text


def clauses(text: str) -> tuple[Clause, ...]:
    """The clauses of `text` in order, each with its act; never empty."""
    found: list[Clause] = []
    for part in _parts(text):
        for piece in _conditions(part):
            found.extend(_with_condition(piece))
    return tuple(found) or (Clause(text.strip(), act_of(text)),)


# Identifiers after a clause's last word ("退了吗 W8120937", "shipped? #W1"): they name what
# it speaks of and leave its question mark or particle where it was.
# Possessive: with nested repeats, ids followed by a word ("w1 w2 w3 w4 w5 啊") would be
# tried every way of splitting them, exponentially many.
_TRAILING_IDS = re.compile(r"(?:[\s,，:：]*+#?[a-z_]*+\d[\w-]*+)++\s*$")


# "已经发货的订单还能取消吗": whether a thing can still be done, asked of nothing the customer
# names as theirs, is a question about the rule; of "我的订单" or an id it is a request.
_STILL_POSSIBLE = re.compile(r"还(?:能|可以)[^，。？！,.?!]{1,20}?(?:吗|嘛|么)")
_THEIRS = re.compile(r"我|帮|给|\d")


def act_of(clause: str) -> Act:
    """Whether `clause` asks about something or asks for something to be done."""
    lowered = _TRAILING_IDS.sub("", clause.lower().strip()) or clause.lower().strip()
    if _STILL_POSSIBLE.search(lowered) and not _THEIRS.search(clause):
        return "question"
    if _REQUEST.search(lowered) or _IMPERATIVE.match(lowered):
        return "command"
    if (
        _QUESTION_END.search(lowered)
        or _QUESTION_START.search(lowered)
        or _QUESTION_WORD_ZH.search(lowered)
    ):
        return "question"
    return "command"


# "… and also exchange the one I got for the pink version?": a clause that opens with an
# order is one, whatever mark it ends with.
_IMPERATIVE = re.compile(
    r"^\s*(?:please |pls |just |also |and |then )*(?:cancel|return|exchange|change|update|modify|send"
    r"|refund|swap|switch|replace|ship|e-?mail|notify|add|remove)\s+(?:the|my|this|that|these|those"
    r"|it|them|both)\b(?:\s+\S+){2,}"
)


# "Check #W1, track the parcel and email me": a list of commands, each after a comma.
_VERB = (
    r"(?:please |pls |just )?(?:cancel|track|return|exchange|change|update|modify|check|tell"
    r"|send|email|e-mail|notify|show|look up|refund|swap|switch)\b"
)
_COMMAND_LIST = re.compile(rf"^\s*{_VERB}", re.IGNORECASE)
_NEXT_COMMAND = re.compile(rf",\s*(?={_VERB})", re.IGNORECASE)


def _commands(piece: str) -> list[str]:
    return _NEXT_COMMAND.split(piece) if _COMMAND_LIST.match(piece) else [piece]


def _parts(text: str) -> list[str]:
    pieces = [
        p.strip(" ,，、")
        for part in _BOUNDARY.split(text)
        if part
        for p in _commands(part)
        if p.strip(" ,，、")
    ]
    merged: list[str] = []
    for piece in pieces:
        # "… cancel it. #W1234567": an id alone belongs to the request beside it.
        if (merged and _bare(piece)) or (merged and _bare(merged[-1])):
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    return merged


# The Chinese nouns an identifier is named by ("订单#W…", "单号W…"); a verb before one
# ("取消W1…") is a request of its own.
_ID_NOUN = re.compile(r"(?:订单号?|单号|编号|号码|单子|[这那]单)[:：]?")


def _bare(piece: str) -> bool:
    """Whether `piece` says nothing but identifiers (words holding a digit),
    perhaps after a Chinese noun naming them ("订单#W…", "单号W…")."""
    rest = _ID_LIKE.sub(" ", piece)
    if rest == piece or re.search(r"[A-Za-z]", rest):
        return not _WORDY.search(rest)
    return not _WORDY.search(_ID_NOUN.sub(" ", rest))


def _conditions(part: str) -> list[str]:
    """ "如果A就B，C的话D", "if A, B, if C, D": one piece per condition and its request,
    split at the comma before each condition after the first."""
    pieces: list[str] = []
    rest = part
    while (first := _CONDITION_START.search(rest)) is not None:
        comma = next(
            (
                m
                for m in _COMMA.finditer(rest, first.end())
                if _LATER_CONDITION.match(rest, m.end())
                and _CONDITION_END.search(rest, first.end() + 1, m.start() + 1) is not None
            ),
            None,
        )
        if comma is None:
            break
        pieces.append(rest[: comma.start()])
        rest = rest[comma.end() :]
    return [*pieces, rest]


def _with_condition(part: str) -> list[Clause]:
    """ "if X, Y", "Y if X", "订单…如果X的话就Y": the condition X and its request Y."""
    start = _CONDITION_START.search(part)
    if start is None:
        return [Clause(part, act_of(part))]
    back = _POINTING_BACK.match(part, start.end())
    end = back or _CONDITION_END.search(part, start.end() + 1)
    stop = back.end() if back else end.start() if end else len(part)
    condition = part[start.start() : stop].strip()
    request = " ".join(
        p
        for p in (part[: start.start()].strip(" ,，"), part[end.end() :] if end else "")
        if p.strip(" ,，")
    ).strip(" ,，")
    if not request and start.start() == 0 and end is None and _LATER_REQUEST.search(condition):
        # "if it's pending cancel it": no comma ends the condition, so the request
        # is inside it; read as a whole, the request is what it asks.
        return [Clause(part, act_of(part))]
    found = [Clause(condition, "conditional")]
    return [*found, Clause(request, act_of(request), part.strip())] if request else found
