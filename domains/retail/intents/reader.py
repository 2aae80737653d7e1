"""What retail brings to the learned reader: its masking of slot values and
what a question about a write's state reads as."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from domains.retail.conditions import read_condition
from domains.retail.ids import ADDRESS, ORDER_ID, PAYMENT_ID
from domains.retail.intents.slots import PRODUCTS
from nodes.intake.rules import normalise
from nodes.intake.surface import spaced
from skills.pii import EMAIL

# "Was it cancelled / returned / changed?" asks where the order stands;
# "did the refund go through?" is already a read.
STATE_READS: dict[str, str] = {
    "cancel_order": "order_status",
    "modify_order": "order_status",
    "return_items": "order_status",
    "exchange_items": "order_status",
    "update_account": "order_status",
}
_DIGITS = re.compile(r"\d+")


_WORDS = re.compile(r"[a-z]{4,}")


@cache
def known_words() -> Mapping[str, int]:
    """The pack's own words and how often its templates use them, which an English
    dictionary may lack and spelling must not "correct": every word of its templates
    ("colour", "earbuds", "unshipped"), slot values and product names (read from the
    templates, so no corpus is generated). Spelling prefers the most used of them
    ("traking" is "tracking" here)."""
    from domains.retail.intents.corpus import TEMPLATES
    from domains.retail.intents.slots import NAMES, OPTIONS_EN, PLAIN_THINGS, SURNAMES

    texts = [
        *(t for lang in TEMPLATES.values() for g in lang.groups for t in g.texts),
        *(t for lang in TEMPLATES.values() for _, t in lang.withdrawals),
        *(t for lang in TEMPLATES.values() for t in lang.openers),
        *(name for pair in (*PRODUCTS, *PLAIN_THINGS) for name in pair),
        *NAMES,
        *SURNAMES,
        *OPTIONS_EN,
    ]
    return MappingProxyType(Counter(w for text in texts for w in _WORDS.findall(text.lower())))


def prepare(text: str) -> str:
    """`text` as the model reads it: lower-cased, ids, e-mails, addresses and
    product names replaced by what they are, so it learns the shape of a request
    rather than which order or product it names. Full-width punctuation is read as
    ASCII, as the request is (`normalise`): the corpus is written with "，" and "？", a
    request arrives with "," and "?", and a character n-gram spanning one must be the same."""
    lowered = spaced(normalise(text).lower())
    lowered = ADDRESS.sub(lambda m: m.group(0).replace(m.group(1), " addr "), lowered)
    lowered = EMAIL.sub(" email ", lowered)
    lowered = PAYMENT_ID.sub(" payid ", lowered)
    lowered = ORDER_ID.sub(" ordid ", lowered)
    lowered = _PRODUCT_NAMES.sub(" product ", lowered)
    return " ".join(_DIGITS.sub("0", lowered).split())


# Longest first, so "笔记本电脑" is a laptop, not a notebook inside it.
_PRODUCT_NAMES = re.compile(
    "|".join(
        re.escape(n)
        for n in sorted({n.lower() for pair in PRODUCTS for n in pair}, key=len, reverse=True)
    )
)


def names_product(lowered: str) -> bool:
    """Whether `lowered` names one of the shop's products, in either language."""
    return bool(_PRODUCT_NAMES.search(lowered))


# What a clause that only points at something is made of: "W5190824, the sneakers", "the
# sneakers for a size 8.", "那个水杯", "the second one is W7815052". It asks nothing of its own; the clause before it
# asks, and the model, reading it alone, guesses a change from the product it names.
_POINTING = re.compile(
    r"\b(?:the|a|an|my|our|your|this|that|these|those|one|ones|order|orders|item|items"
    r"|number|no|is|for|in|of|with|and|size|sizes|colou?rs?|pairs?|please|pls|plz|thanks|thx"
    # "It was for order W1.", "the second one is W7": which order, told.
    r"|it|was|id|first|second|third|last|latest|other"
    r"|black|white|blue|red|green|gr[ae]y|navy|pink|brown|beige|silver|gold|purple|yellow"
    r"|orange|small|medium|large|x*[sl]|m|xxl|ordid|payid|product|#)\b"
    r"|那个|这个|那件|这件|那单|这单|那笔|这笔|订单|单号|我的|的|号|是|尺码|颜色|码|色|一个|两个|个|件"
    r"|黑|白|蓝|红|绿|灰|粉|大|中|小|亲|哈|呢|吧|啊|就是|第[一二三]"
)


# "The helmet", "the mat": a product named by its last word ("set" and "watch" are verbs too).
_VERBS = {"set", "watch"}
_HEADS = sorted({en.lower().split()[-1] for en, _ in PRODUCTS} - _VERBS)
_PRODUCT_HEADS = re.compile(rf"\b(?:{'|'.join(map(re.escape, _HEADS))})s?\b")


def points_only(clause: str) -> bool:
    """Whether `clause` only names what another clause asks about: ids, products, sizes."""
    named = _PRODUCT_NAMES.sub(" product ", ORDER_ID.sub(" ordid ", clause.lower()))
    rest = _POINTING.sub(" ", _PRODUCT_HEADS.sub(" ", named))
    return not re.search(r"[a-z\u4e00-\u9fff]", _DIGITS.sub(" ", rest))


# The words a write needs: the learned reader chooses among the writes a clause
# has words for and never adds one it has none for. Broad on purpose (verbs of
# the family, in both languages): they veto, they never read.
WRITE_CUES: dict[str, str] = {
    # "Stop the order", not "please stop." (stop what is being done).
    "cancel_order": r"cancel|call (?:it )?off|\bkill\b|\bscrap|\babort\b|\bvoid\b|\bdrop\b"
    r"|\bstop(?:ped)?\b(?= (?:the|my|this|that|it|them|order|shipment|delivery|#?w\d|ordid)\b)"
    r"|取消|不要了|退单|撤单|撤销|退掉|撤了|撤掉",
    "modify_order": r"chang|modif|updat|upgrad|switch|swap|replac|\bedit|instead|\bpay|\buse\b|\bput\b|redirect"
    r"|\brather have\b|\bprefer\b|\badd\b|\bremove\b|加(?:一|两|个|上|到)|添加|再加|删掉|删除|去掉"
    r"|\bgo there\b|\bshould go\b|改过去|补上|少写|漏写"
    r"|\bship|\bsend|deliver|wrong address|correct|\bfix|typo|misspel|should (?:be|read|say)\b"
    r"|改|换|更换|替换|变更|寄到|送到|付|写错|填错",
    "return_items": r"return|\bback\b|refund|money back"
    r"|退|寄回|返还",
    "exchange_items": r"exchang|swap|replac|chang|upgrad|different|another|instead|switch|trade|bigger|smaller"
    r"|\bsize|colou?r|version|换"
    # What came is wrong and the right one is wanted: "I want the white one", "a new bike sent".
    r"|\bwrong (?:size|model|item|one|version|thing)|\bnew one\b|\ba new \w+ sent|\b(?:want|need) the \w+ one\b"
    r"|\bone like i ordered|发错|重新发|补发|新的",
    "update_account": r"chang|updat|modif|\bedit|\bmov(?:e|ed|ing)\b|new address|correct|\bfix|\bset\b(?! up)|\bsave"
    r"|\buse\b|default|from now on|typo|misspel|should (?:be|read|say)\b"
    r"|改|换|更新|修改|搬|新地址|变更|设|写错|填错|补上|少写|漏写",
    "notify": r"e-?mail|\bmail\b|notif|message me|text me|let me know|send (?:me|it|this|the)|ping me|keep me (?:posted|updated)"
    r"|remind|\bgive me a (?:shout|heads[- ]up|call|buzz)\b|通知|邮件|短信|(?<!能)(?<!可以)(?<!能不能)(?<!麻烦)告诉我|发给我|发我|提醒|喊我|叫我一声|说一声|吱一声|知会",
}
_NEGATION = (
    r"(?:\b(?:don'?t|do not|dont|didn'?t|did not|never|no need to|not|won'?t|will not|stop|without|no)\b\s+(?:\w+\s+){0,2}"
    # "I don't need to send it back any more": what is no longer needed stands further on.
    r"|\b(?:don'?t|do not|no longer|not) (?:need|want|have) to\s+(?:\w+\s+){0,3}"
    r"|\bnot (?:asking|trying|looking|wanting|planning|going)(?: you)? to\s+"
    # "rather my money back than a replacement"; thanks for what was done; a hedge.
    r"|\b(?:than|rather than)\s+(?:\w+\s+){0,2}"
    r"|\bthanks?(?: you)? (?:so much )?for\s+(?:\w+\s+){0,2}"
    r"|\b(?:before i (?:decide|choose)(?: whether)? to|thinking (?:about|of)|considering)\s+"
    # "if I were to cancel it, would …", "I was going to exchange it but …", "tried to return
    # it twice": a change weighed, meant once or attempted, not asked for now.
    r"|\b(?:if i were to|i might(?: want to| need to| have to)?|i may(?: want to| need to)?"
    r"|i(?:'ll| will) probably|i was (?:going|gonna|planning|about) to|i was gonna|i(?:'ve)? tried"
    r"|tried to)\s+(?:to\s+)?"
    r"|谢谢(?:你|您)?(?:帮我|给我|替我)?"
    # "外套可能要换吧，再看看": a change weighed, not asked.
    r"|(?:可能|也许|说不定|或许)(?:要|会|得)?(?:去)?"
    # "别给我发邮件", "不需要帮我取消": the one it is done for may stand between.
    # "撤回刚才的改地址申请": a request taken back.
    r"|撤回(?:刚才|之前|上次|我)?的?"
    # "我记得申请过取消", "已经申请退货了": a request already made, reported.
    r"|已经申请|申请(?:过|了)|已经(?:被|给)?"
    r"|(?:不是要|不是想|不要|别|不用|无需|无须|不需要|没必要|用不着|不打算|不想|先不|不必|甭|没有?|不)"
    r"(?:再|要|用|必|点过?|去)?(?:给我|帮我|替我|跟我|为我)?(?:再)?(?:发|打|寄|办|弄|做)?)"
)
_WITHDRAWN = re.compile(
    r"\bnever ?mind\b|\bnvm\b|\bforget (?:about )?(?:it|that)\b|\bscratch that\b"
    r"|\bignore (?:that|this|my last(?: message)?)\b"
    # "I wanted to exchange the helmet but now I decide to keep.": the item stays.
    r"|\bdecided? to keep(?: (?:it|them))?\s*(?:[.!,;]|$)|\bi(?:'ll| will) (?:just )?keep (?:it|them)\b"
)
# A clause that takes back the one before it ("cancel it. wait no, don't.", "return the
# perfume. I mean exchange it.", "退了吧。算了"): that one's change is not asked.
_TAKES_BACK = re.compile(
    r"^\W*(?:(?:oh|um|uh|hmm|ok|okay|so|and|but|then)\W+)*(?:wait\W+no|no\W+wait|actually\W+(?:no|nah)"
    r"|nah|never ?mind|nvm|scratch that|forget (?:it|that)|ignore (?:that|this|my last)"
    r"|wait\W+(?:don'?t|do not)|no\W+don'?t|i take (?:it|that) back|(?:sorry\W+)?i (?:mean|meant))\b"
    r"|^\W*(?:等等|等一下|哦|呃)?\W*(?:算了|还是算了|不对|说错了|我是说)"
)


def takes_back(clause: str) -> bool:
    """Whether `clause` takes back the change the clause before it asked for."""
    return bool(_TAKES_BACK.search(clause.lower()))


# "Leave my profile as it is", "账户地址别动": what is to stay as it is is no change asked.
_LEFT_ALONE = re.compile(
    r"\b(?:leave|keep)\s+(?:\w+\s+){0,3}?(?:as (?:it |they )?is|alone|unchanged|the same)\b"
    r"|\bdon'?t touch\b|保持不变|不要动|别动|不用动"
)
_PAUSE = re.compile(r"[,，.;；。!！]")
# "From now on, refund to my gift card" states a standing preference (memory
# keeps it); with no order named it asks for no change now.
# "以后" after an event ("发货以后给我发邮件") is "after it", not "from now on".
_LASTING = re.compile(
    r"from now on|going forward|in (?:the )?future|\bby default\b"
    r"|(?<![\u4e00-\u9fff])以后|以后(?:都|一律|统一)|今后|默认"
)
_CUES = {intent: re.compile(cue) for intent, cue in WRITE_CUES.items()}


@functools.cache
def _negated(intent: str) -> re.Pattern[str]:
    """What withdraws `intent`'s write. Per intent, so that a nearer word of another write
    ("do not send me emails": "send" is a change's word too) never hides the one negated;
    compiled on first use, so a request naming no write compiles none of them."""
    cue = WRITE_CUES[intent]
    return re.compile(
        # "don't return the whole order, only the bottle" narrows the change; it is asked.
        # An English word's ending only: a Chinese run has no spaces, and "没取消的话帮我取消"
        # asks for the cancel its condition names.
        f"{_NEGATION}(?:{cue})[a-z]*+(?!\\s+(?:the\\s+)?(?:whole|entire|everything|all)\\b)"
        # "the returned lamp", "my cancelled order", "退回去的东西": an action already done.
        f"|\\b(?:the|my|that|this|those|these)\\s+(?:{cue})\\w*ed\\b"
        # "I switched it to the white one", "I'd already cancelled": a report of what was done.
        f"|\\bi(?:'d|'ve| had| have)?\\s+(?:already\\s+|just\\s+)?(?:{cue})\\w*ed\\b"
        # "I return the shoes already 1 week ago": a report in a second language's tenses.
        f"|\\bi\\s+(?:{cue})[a-z]*\\b[^.?!,]{{0,30}}?\\b(?:ago|already)\\b"
        f"|(?<!要)(?<!想)(?:{cue})(?:了|过|掉|回去|回来)?的"
        # "cancel算了", "退货就不用了", "邮件就别发了": the action named, then called off.
        f"|(?:{cue})\\w{{0,3}}?\\s?(?:就|还是|也)?(?:算了|不用了|不必了|别\\S{{0,2}}了)"
        # "退货退到一半不想退了": a change half done, told of.
        f"|(?:{cue})\\w{{0,3}}?(?:到|了)一半"
        # "Return was accepted last week", "cancellation has been processed": a report.
        f"|(?:{cue})\\w*\\s+(?:was|were|has been|have been|got|is|are)\\s+(?:already\\s+)?"
        f"(?:accepted|approved|processed|received|done|completed|confirmed|submitted|initiated|started)\\b"
        # "书架退回来了": it has come back.
        f"|(?:{cue})(?:回来|回去)了"
        # "取消订单已经三天了": how long ago it was done.
        f"|(?:{cue})\\w{{0,2}}?(?:已经|都)有?[一二两三四五六七八九十几半\\d]+(?:天|周|个?星期|个?月|小时)"
    )


# "I got an e-mail saying so" tells what happened; it asks for no e-mail.
_MAIL_TOLD = re.compile(
    r"\b(?:i|we) (?:got|received|had|saw) (?:an?|the|your|some) e-?mails?\b"
    r"|\b(?:didn'?t|did not|never|haven'?t|have not|hasn'?t) (?:get|got|gotten|receive|received|had|seen)"
    r" (?:an?|the|any|your) (?:\w+ )?e-?mails?\b|收到\s*(?:了)?(?:一封|任何)?\s*(?:邮件|e-?mail)"
    r"|\bmy e-?mail(?: address)? is\b|我的邮箱(?:地址)?是"
    # "I seem to have misplaced the confirmation e-mail", "Email: j@x.com": one lost, an
    # address given.
    r"|\b(?:lost|misplaced|deleted|can'?t find|cannot find)\s+(?:\w+\s+){0,2}e-?mails?\b"
    r"|\be-?mail\s*[:：]\s*\S+@"
)
_MAIL_ASKED = re.compile(
    r"\b(?:send|forward|resend|notify)\b|e-?mail (?:me|it|us)\b|发(?:个|一封)?邮件|通知我"
)


_EVENT = re.compile(
    r"\b(?:updates?|ships?|shipped|arriv\w*|deliver\w*|track\w*|status)\b|更新|发货|到货|签收|物流|变化|进度"
)


def _for_later(lowered: str) -> bool:
    """Whether the text speaks of later and of no order ("from now on, refund to my card")."""
    return bool(_LASTING.search(lowered)) and not ORDER_ID.search(lowered)


def standing_preference(lowered: str) -> bool:
    """A preference for later that names no order and asks nothing ("from now on, refund
    to my gift card"): memory keeps it; it is no question about a refund now."""
    return _for_later(lowered) and "?" not in lowered and "？" not in lowered


# "Is it possible to exchange for a different model?", "can I cancel after it ships?": whether
# a change can be done, of no order in particular, asks about the rule (LABELS.md). Asked of
# the shop in general, any object but one named will do; asked of oneself ("can I cancel
# for …"), only a time or a condition: in a conversation "can I exchange for an M?" asks.
_IN_GENERAL = re.compile(
    r"\b(?:(?:is|would) it (?:be )?possible to|is there (?:a|any) way to|are (?:we|customers|people)"
    r" allowed to|do you (?:let|allow) (?:people|customers) to|can (?:one|customers|people))"
    r"\s+(?:\w+\s+)??(?P<general>\w+)\s+(?:for|after|before|if|once|when|within|without"
    r"|(?:an?|any) (?:order|item|product|purchase|thing)s?|orders|items|products|things)\b"
    r"|\b(?:(?:can|could) (?:i|we)|(?:would|will) (?:i|we) be able to)"
    r"\s+(?:\w+\s+)??(?P<own>\w+)\s+(?:(?:it|them|this|that|the \w+(?: \w+)?)\s+)?"
    r"(?:(?:later|later on|afterwards|anytime|any time)\s+)?(?:after|before|if|once|when|within|without"
    r"|(?:an?|any) (?:order|item|product|purchase|thing)s?|orders|items|products|things)\b"
)


# "香水这种拆了封还能退不", "特价商品能换吗", "默认地址可以随时改吗", "能不能改地址 已经发货的那种":
# whether a kind of thing, or at any time, can be changed asks about the rule. A bare
# "能退吗" does not: in a conversation it asks for the return of the thing spoken of.
_KIND_ZH = r"(?:这种|这类|那种|这样的|那样的|特价|打折|促销|清仓|任何|随时|一般)"
_ASKED_ZH = r"(?:能|可以|能不能|可不可以|可否|是否)"
_IN_GENERAL_ZH = re.compile(
    rf"{_KIND_ZH}[^。!！?？,，]{{0,12}}?{_ASKED_ZH}[^。!！?？,，]{{0,4}}?(?P<zh>退|换|改|取消)"
    rf"|{_ASKED_ZH}[^。!！?？]{{0,8}}?(?P<zh_before>退|换|改|取消)[^。!！?？]{{0,20}}?(?:的那种|这种|那种)"
    rf"|{_ASKED_ZH}(?:随时|一直|任何时候|什么时候都)(?P<zh_when>退|换|改|取消)"
)


def _asked_in_general(lowered: str) -> set[str]:
    """The writes `lowered` asks whether they can be done at all, of no order it names."""
    if ORDER_ID.search(lowered) or re.search(r"\bplease\b|\bpls\b|帮我|麻烦", lowered):
        return set()  # "can I please cancel before it ships?" asks for it
    verbs = [m.group("general") or m.group("own") for m in _IN_GENERAL.finditer(lowered)]
    verbs += [
        m.group("zh") or m.group("zh_before") or m.group("zh_when")
        for m in _IN_GENERAL_ZH.finditer(lowered)
    ]
    return {i for i, cue in _CUES.items() for verb in verbs if cue.search(verb)}


def negated_writes(clause: str) -> frozenset[str]:
    """The writes `clause` withdraws: every word naming the action is negated
    ("don't cancel", "不用退了", "no need to change"), or all is ("never mind")."""
    lowered = clause.lower()
    if left := _LEFT_ALONE.search(lowered):
        # "Leave my profile as it is": every change but one asked for apart from it ("cancel
        # it, otherwise leave it alone" still cancels).
        apart = _PAUSE.split(lowered[: left.start()])[:-1] + _PAUSE.split(lowered[left.end() :])[1:]
        return frozenset(i for i, cue in _CUES.items() if not any(cue.search(p) for p in apart))
    if withdrawn := _WITHDRAWN.search(lowered):
        # "nvm about the lamp, cancel #W1 instead": what follows the withdrawal is asked.
        later = _PAUSE.split(lowered[withdrawn.end() :], maxsplit=1)[1:] or [""]
        asked = {i for i, cue in _CUES.items() if cue.search(later[0])} - negated_writes(later[0])
        return frozenset(_CUES) - asked
    if _for_later(_TO_DEFAULT.sub(" ", lowered)):
        # The account's default address is itself the lasting thing ("账户默认地址改成…"),
        # as are e-mails on an event from now on ("以后有物流更新就给我发邮件"); "contact me by
        # e-mail from now on" is a preference memory keeps, and sends nothing now.
        lasting = {"update_account", "notify"} if _EVENT.search(lowered) else {"update_account"}
        return frozenset(_CUES) - lasting
    told = {"notify"} if _MAIL_TOLD.search(lowered) and not _MAIL_ASKED.search(lowered) else set()
    if _TO_DEFAULT.search(lowered):  # "改成默认地址那个": the account's address is where it goes
        told.add("update_account")
    negated = {
        i
        for i, cue in _CUES.items()
        if cue.search(lowered)
        and (not cue.search(_negated(i).sub(" ", lowered)) or _mind_changed(i).search(lowered))
    }
    return frozenset(negated | told | _refund_checked(lowered) | _asked_in_general(lowered))


@functools.cache
def _mind_changed(intent: str) -> re.Pattern[str]:
    """A change called off after every mention of it ("我想退的那个香水我不退了"): the
    mentions before it are the thing spoken of, not asked."""
    cue = WRITE_CUES[intent]
    return re.compile(
        f"(?:不想|不要|不用|不打算|先不|不)再?(?:{cue})\\w{{0,2}}?了(?!.*(?:{cue}))", re.S
    )


# "Ship it to my default address", "麻烦改成默认地址那个": an order sent where the account
# says, which the account's address is not changed by.
_TO_DEFAULT = re.compile(
    r"\b(?:to|use|using)\s+(?:my|the)\s+(?:account'?s?\s+)?(?:default|saved)\s+address\b"
    r"|(?:改成|改为|换成|改到|寄到|送到|用)(?:我的)?(?:账户|账号)?(?:的|里的|上的)?(?:默认|保存的)地址"
)
# "Checking on a refund", "refund 还是 pending": a refund followed up on. "Refund" is a
# return's word only where it is asked for ("refund me", "我要退款").
_REFUND_CHECKED = re.compile(
    r"\b(?:check(?:ing)?|follow(?:ing)?[- ]?up|ask(?:ing)?|enquir\w*|inquir\w*|update|news|status)"
    r"\s+(?:in\s+)?(?:on|about|of|for|regarding)\s+(?:a|my|the|this|that|our)?\s*refund\b"
    r"|\brefund\b[^.?!,]{0,20}?\b(?:still|pending|processing|stuck|status)\b"
    r"|(?:refund|退款)\s*(?:还是|一直|仍然|还在|状态|进度|到哪)"
)
_MONEY_BACK = re.compile(
    r"refund\w*|money back|(?:把)?钱(?:款)?退\S?|退款|退钱"
    r"|退回?(?:到|回)(?=\S{0,8}?(?:卡|账户|支付宝|微信|paypal))"
)


def money_back_only(lowered: str) -> bool:
    """Whether the only return `lowered` words is money going back ("refund it to my
    card", 把钱退到礼品卡): beside a cancel it is the cancel's, followed up on it is asked
    about."""
    worded = "return_items" in worded_writes(lowered)
    return worded and "return_items" not in worded_writes(_MONEY_BACK.sub(" ", lowered))


def _refund_checked(lowered: str) -> set[str]:
    """A return whose only word asked is a refund followed up on: not asked ("书架退回来了
    退款到哪了" tells of the return and follows the refund up)."""
    if not _REFUND_CHECKED.search(lowered):
        return set()
    rest = _negated("return_items").sub(" ", _MONEY_BACK.sub(" ", lowered))
    return set() if "return_items" in worded_writes(rest) else {"return_items"}


# The words a read is asked in, for withdrawing it: "don't tell me where it is, just cancel
# it" asks no tracking (LABELS.md). Narrow on purpose: "I don't know where it is" asks.
READ_CUES: dict[str, str] = {
    "track_shipment": r"where|track|\beta\b|arriv|deliver|carrier|在哪|到哪|物流|快递单号|单号|什么时候到",
    "order_status": r"status|state\b|状态|进度",
    "refund_status": r"refund|退款",
    "delay_complaint": r"complain|late\b|delay|投诉|吐槽|晚了|延误",
    "human_handoff": r"human|agent|person|manager|supervisor|representative|人工|真人|经理|主管|领导",
}
_READ_NEGATION = (
    r"\b(?:don'?t|do not|dont|no need to|not|never|won'?t)\s+(?:\w+\s+){0,2}?"
    r"(?:tell|show|check|look|give|need|want|ask|asking|bother|care|send|transfer|connect|talk|speak"
    r"|complain|complaining|escalat)\w*\s+(?:\w+\s+){0,3}?"
    r"|\bno need (?:for|of)\s+(?:\w+\s+){0,2}?"
    r"|\b(?:not|never|don'?t|do not)\s+(?:\w+\s+)?(?=complain|escalat)"
    r"|(?:不用|别|不需要|无需|不必|甭|不是要|不是想|不想|不要)(?:再)?(?:帮我|给我|跟我)?"
    r"(?:查|告诉|说|看|发|管|问|找|转|叫)?"
)
_READ_CUES = {intent: re.compile(cue) for intent, cue in READ_CUES.items()}


@functools.cache
def _read_negated(intent: str) -> re.Pattern[str]:
    cue = READ_CUES[intent]
    # "物流就不用查了", "找到单号了，不用查了": the read named, then called off.
    return re.compile(
        f"(?:{_READ_NEGATION})(?:{cue})[a-z]*"
        f"|(?:{cue})[^。！？!?]{{0,8}}?(?:就|也)?(?:不用|不必|别|甭)(?:再)?(?:查|看|管|问|说)?了"
    )


# "把其中的那个水杯取消掉", "cancel just the helmet from my order": an item taken off an
# order is the order's change, not its cancel.
_ITEM_REMOVED = re.compile(
    rf"(?:里面?|其中|中)的?[^。！？?!]{{0,16}}?(?:{_PRODUCT_NAMES.pattern}|它)[^。！？?!都全]{{0,16}}?"
    r"(?:取消|删掉|删除|去掉|拿掉|减掉)"
    # "cancel the perfume on order #W1" may be the perfume's order; "just" one of it is not.
    r"|\b(?:(?:remove|drop|take (?:off|out))\s+(?:just\s+|only\s+)?|cancel\s+(?:just|only)\s+)"
    r"(?:the|one|that|this)\s+[a-z -]{1,30}?\s+(?:from|in|on|off)\s+(?:my|the|this|that|order)\b"
)


def item_removed(found: list[str], lowered: str) -> list[str]:
    """`found` with a cancel read as the order's change when an item is taken off it."""
    if "cancel_order" not in found or not _ITEM_REMOVED.search(lowered):
        return found
    changed = [i for i in found if i != "cancel_order"]
    return changed if "modify_order" in changed else [*changed, "modify_order"]


def in_general(reading: str) -> frozenset[str]:
    """The writes `reading` (a request with its condition) asks whether they can be done at
    all, of no order it names. A condition on the order's state ("can I cancel it if it
    hasn't shipped?") gates a request instead."""
    if read_condition(reading) is not None:
        return frozenset()
    return frozenset(_asked_in_general(reading.lower()))


def negated(clause: str) -> frozenset[str]:
    """What `clause` withdraws: writes (`negated_writes`) and reads every word of which is
    negated ("I don't want the status", "物流不用查了", "not asking for a manager")."""
    lowered = clause.lower()
    reads = {
        i
        for i, cue in _READ_CUES.items()
        if cue.search(lowered) and not cue.search(_read_negated(i).sub(" ", lowered))
    }
    return negated_writes(clause) | reads


# An item change is the order's before it ships and an exchange once it is delivered (LABELS.md).
_NOT_SHIPPED = re.compile(
    r"\b(?:has ?n[o']?t|not|never|isn'?t|is not|still hasn'?t|hasnt|hasn't) (?:been )?(?:shipped|sent|gone out|out yet)"
    r"|\bbefore (?:it|they|the order|the package) (?:ships|ship|goes out|go out|is sent|leaves)\b"
    r"|\bjust (?:ordered|placed|bought|purchased)\b|\b(?:still|it'?s|is) pending\b"
    r"|\bordered (?:it |this |them )?(?:\d+|a few|ten|five|an?) (?:min|mins|minutes|hours?) ago\b"
    r"|还没发|没发货|未发货|还没寄|还在仓库|发货(?:之)?前|刚下(?:的)?单|刚拍"
)
_RECEIVED = re.compile(
    r"\b(?:i )?(?:got|received|arrived|came|delivered)\b|收到|到了|已经到|刚到|签收"
    r"|\bunopened\b|\bnever opened\b|\bstill sealed\b|拆封|没拆|未拆"
)


def received(lowered: str) -> bool:
    """Whether `lowered` says the items arrived (and not that they have not shipped)."""
    return bool(_RECEIVED.search(lowered)) and not _NOT_SHIPPED.search(lowered)


# "Send me the blue one and take this back": a return with its replacement is an exchange.
_REPLACEMENT = re.compile(
    r"\bsend (?:me )?(?:the |a )?(?:right|correct|other|\w+) (?:size|one|colou?r|model)\b(?!\s+back)"
)


_READDRESSED = re.compile(r"\b(?:ship|send|deliver) (?:it|them) to\b|\baddress\b|寄到|送到|地址")


def item_change(found: list[str], lowered: str) -> list[str]:
    """`found` with an item change read as what the order's state makes it: a change to
    an order that has not shipped is `modify_order`, one to items received an exchange;
    a return with its replacement sent is an exchange."""
    if "return_items" in found and _REPLACEMENT.search(lowered):
        found = [i for i in found if i != "return_items"]
        found = found if "exchange_items" in found else [*found, "exchange_items"]
    # "退掉然后换成二十四寸的", "send me M and I send back the S": one thing sent back for
    # another is its exchange (two things named may be a return and an exchange).
    one_order = len(set(ORDER_ID.findall(lowered))) <= 1
    one_thing = one_order and len(set(_PRODUCT_NAMES.findall(lowered))) <= 1
    if {"exchange_items", "return_items"} <= set(found) and one_thing:
        found = [i for i in found if i != "return_items"]
    both = {"modify_order", "exchange_items"} <= set(found)
    unshipped = bool(_NOT_SHIPPED.search(lowered)) and not _RECEIVED.search(lowered)
    if unshipped and "exchange_items" in found:
        kept = [i for i in found if i != "exchange_items"]
        return kept if both else [*kept, "modify_order"]
    if both and received(lowered):
        return [i for i in found if i != "modify_order"]
    # "Change the chair on #W1 to black, and ship it to my office": one order changed and
    # readdressed has not shipped, so its item change is the order's too.
    if both and one_order and _READDRESSED.search(lowered) and not _RECEIVED.search(lowered):
        return [i for i in found if i != "exchange_items"]
    return found


# "E-mail me when it ships", "email me the receipt": the e-mail waits on an event or
# carries a document, and asks for none of the order's facts (LABELS.md).
_MAIL_ONLY = re.compile(
    r"\b(?:when|once|as soon as|the moment|after|if)\b.{0,40}?"
    r"\b(?:ship|arriv|deliver|refund|out\b|process|done|go(?:es)? through|gone|leav|land"
    r"|on (?:its|the) way|dispatch)"
    r"|\b(?:receipt|invoice|copy|confirmation)\b"
    # "发货了就发邮件", "送达后通知我", "电子收据": Chinese triggers and documents. A change
    # ("有变化就通知我") is no event: the e-mail tells the order's state (the instruction suite).
    r"|(?:发货|发出|寄出|出库|送达|到货|签收|到了|到账|退款|处理|办)(?:好|完)?了?(?:的时候|之后|以后|后|就|再)"
    r"|(?:处理|办|弄|退)(?:好|完)了"
    # "发货了通知我一下": the event, then straight on to the telling.
    r"|(?:发货|发出|寄出|出库|送达|到货|签收|到账)了?(?=\s*(?:麻烦|请)?(?:通知|告诉|跟我说|说一声|发邮件|提醒|喊我))"
    r"|收据|发票|确认(?:邮件|信|函)"
)


def mail_only(lowered: str) -> bool:
    """Whether an e-mail asked for in `lowered` needs no facts of the order it names."""
    return bool(_MAIL_ONLY.search(lowered))


# "I saw a 'cancellation pending' thing", 页面显示“退货中”: words in quotes are what the customer
# saw or was told, not what they ask for.
_QUOTED = re.compile(
    r"(?<!\w)'[^'\n]{1,40}?'(?!\w)|\"[^\"\n]{1,40}?\"|“[^”\n]{1,40}?”|「[^」\n]{1,40}?」"
)


def worded_writes(clause: str) -> frozenset[str]:
    """The writes some word of `clause` names, outside quotes."""
    lowered = _QUOTED.sub(" ", clause.lower())
    return frozenset(i for i, cue in _CUES.items() if cue.search(lowered))
