"""Retail rules-tier vocabulary: which words signal which intent, in English and Chinese.

Patterns are data, kept apart from the matching code so they can be reviewed
(and extended) without touching logic. Every pattern is a regular expression
matched on normalised, lower-cased text: English ones carry word boundaries,
Chinese ones are mostly literal substrings (a few use look-arounds to tell
"退款到哪" — a refund question — from "快递到哪" — a tracking one).
"""

from __future__ import annotations

# "Change my address to ..." is an order's address when an order is named,
# else the account's; intake's overlap rules decide which.
ADDRESS_CHANGE: tuple[str, ...] = (
    r"\b(?:change|update|correct|fix) (?:my |the |its |this |that |the order'?s )?(?:shipping |delivery )?address\b",
    "改地址",
    "地址改",
    "修改地址",
    "换地址",
)

# "Don't cancel it", "不要取消了": an action the customer does not want is no intent.
NEGATED_ACTIONS: tuple[str, ...] = (
    r"\b(?:don'?t|do not|dont|never|no need to|won'?t|will not)\s+(?:\w+\s+){0,2}?"
    r"(?:cancel|return|exchange|refund|change|modify|update|swap|send)\w*",
    "(?:不要|别|不用|无需|不想|先不|不)(?:再|要)?(?:取消|退货|退款|退|换货|换|修改|改)",
)

# A task on a text the customer quotes or names ("translate 'where is my package' into
# Spanish", "write a story where my chair comes alive") asks nothing of the shop, whatever
# the text speaks of: the model would read what is quoted. Only a message that asks that
# alone: "translate the policy? and I want to return #W1" still asks for the return.
OFF_TOPIC_TASKS: tuple[str, ...] = (
    r"\btranslat\w*\b.{0,80}?(?:\binto\b|\bto (?:english|chinese|spanish|french|german|japanese)\b)",
    r"\btranslat\w* (?:this|that|the following|these)\b|\btranslat\w*\s*[:：'\"“‘]",
    r"把.{1,60}?(?:翻译|翻|译)成|翻译(?:一下)?(?:这句|这段|下面|以下)|翻译(?:一下)?\s*[:：“\"']",
    r"\bwrite (?:me )?(?:an? |some )?(?:short |little |funny |quick )?"
    r"(?:\w+ )?(?:story|poem|song|haiku|limerick|essay|rap|sql|query|code|script|program|function)\b",
    r"写(?:一)?(?:首|篇|个|段)[^，。？！,.?!]{0,20}?(?:诗|故事|作文|代码|歌|程序)",
)
# "All my orders" is a bulk change only next to a write verb: reading every
# order of one's own is an ordinary status question.
BULK_SCOPE: tuple[str, ...] = (
    r"\ball (?:of )?(?:my |the |our |your )?(?:\w+ )?orders(?![a-z])",
    r"\b(?:every|each) (?:single )?(?:one of (?:my|the) )?(?:\w+ )?orders?(?![a-z])",
    r"\bevery (?:single )?(?:thing|item|purchase)\b",
    r"\beach of (?:my|the|them)\b",
    r"\ball of (?:them|those)\b",
    r"\b(?:them|those|these) all\b",
    r"\b(?:everything|anything|all (?:the )?(?:stuff|things|items)) i (?:ordered|bought|purchased)\b",
    # "remove the bulbs, I'll keep the rest": the rest of one order is kept, not changed.
    r"(?<!\bkeep )(?<!\bkeeping )(?<!\bleave )(?<!\bleaving )\b(?:the|all the) rest\b"
    r"(?! of (?:the|this|that|my) (?:order|package|items?)\b)(?! (?:is|are|was|were) (?:fine|ok|okay|good|great))",
    r"\b(?:everything|anything|all) (?:that'?s |that is |i have |i've got )?(?:still )?(?:open|pending|unshipped)\b",
    # "cancel everything that hasn't shipped": all that is in a state, changed at once.
    r"\b(?:everything|anything|all(?: (?:of )?(?:my |the )?orders)?) (?:that|which) (?:still )?"
    r"(?:hasn'?t|has not|haven'?t|have not|isn'?t|is not|aren'?t|are not) (?:yet )?(?:been )?"
    r"(?:shipped|sent|dispatched|gone out|delivered)\b",
    # "账户里和那个订单都改成…": the account and one order, both; not every order.
    "(?:所有|全部|每个|每一个|每一|每笔)的?\\S{0,6}(?:订单|单|东西)|订单全部|(?<![这那]个)(?<![这那])订单都"
    "|统统|全都|一律|通通",
    # "我有三个订单还没发货 全部帮我取消": orders counted, then all of them.
    # "二十多个订单 能不能统一把付款方式改", "好几单…都改成".
    "(?:(?:[两三四五六七八九十几多]|\\d+)(?:个|笔)|好几|几)\\S{0,4}?(?:订单|单)[^。！？?!]{0,16}?(?:全部|都|统一)",
)
BULK_WRITE_VERBS: tuple[str, ...] = (
    r"\b(?:cancel|refund|return|exchange|change|modify|update|delete|remove|edit|swap|switch|move|send back|add)",
    "取消|退|换|改|删|更新|不要|加上|添加",
)

# Bounded by what is not part of an id, not by \b: "查jane_doe_1234的订单" has no word boundary.
USER_ID = r"(?<![a-z0-9_])[a-z]+(?:_[a-z]+)+_\d{4}(?![a-z0-9_])"
# "Please update the default address on my account (user id priya_nair_3318)": the customer's
# own id, told; the tools act for the signed-in customer whatever id a message names.
OWN_USER_ID = (
    r"(?:(?:\bi(?:'m| am)|\bthis is|我是)\s*|(?:\b(?:my|our)\s+|我的)(?:user\s*id|user\s*name|username|account(?:\s+id)?|id|login"
    r"|用户名|账号|账户|用户id|id)\s*(?:is\b|=|:|：|是|\(|（)?\s*(?:user\s*id\s*[:：]?\s*)?)"
    + USER_ID
)
_RELATIVE = (
    r"(?:neighbou?r|friend|husband|wife|spouse|partner|(?:girl|boy)friend|fianc[eé]e?"
    r"|mother|mom|mum|mama|father|dad|papa|parents?|grand(?:ma|pa|mother|father)|brother|sister"
    r"|son|daughter|kids?|child|aunt|uncle|cousin|nephew|niece|colleague|co-?worker|boss"
    r"|room-?mate|flat-?mate|house-?mate|buddy|pal|client)"
)
_RECORD = (
    r"(?:orders?|account|address|e-?mail|details|info|refund|return|package|parcel|purchases?"
    r"|delivery|payment)"
)
_RELATIVE_ZH = (
    "朋友|邻居|老公|老婆|丈夫|妻子|媳妇|对象|男朋友|女朋友|妈妈|爸爸|我妈|我爸|父母|爷爷|奶奶"
    "|外公|外婆|姥姥|姥爷|儿子|女儿|孩子|哥哥|姐姐|弟弟|妹妹|同事|家人|室友|舍友|闺蜜|同学"
    "|我姐|我哥|我弟|我妹|老妈|老爸|爸妈|婆婆|公公|岳父|岳母|舅舅|姑姑|叔叔|表姐|表哥|表妹|表弟|堂姐|堂哥"
)

INTENT_PATTERNS: dict[str, tuple[str, ...]] = {
    # Other people's data, or an explicit bulk: refused whatever is asked.
    # (Many of one's own orders are bulk only with a write: BULK_SCOPE.)
    "bulk_modify": (
        r"\ball (?:customers|users|accounts)\b",
        r"\b(?:everyone|everybody)'?s?\b",
        r"\bother (?:customers?|users?|people)'?s?\b",
        # "Do you offer bulk pricing?" asks about buying many, not changing many orders.
        r"\bbulk\b(?! (?:pric|discount|rate|purchas|buy|quote|deal|order(?:s|ing)? (?:of|for)\b))",
        "所有用户|所有客户|所有人|批量(?!购买|采购|价|优惠|折扣|团购)|别人的|其他用户|其他客户|其他人的|他人"
        "|(?:别的|其他|其它|那个|这个|某个|另一个)(?:用户|客户|顾客|买家|会员)",
        r"\b(?:another|other|someone else'?s?) (?:customer|user|account|person)",
        # "You sent me someone else's order": what came to the customer is theirs to speak of.
        r"(?<!\bsent me )(?<!\bgot )(?<!\breceived )(?<!\bdelivered )(?<!\bgave me )\bsomeone else'?s\b",
        # Somebody else's records, however the customer is related to them; where a parcel
        # goes ("ship it to my mum's address") is the customer's own order.
        rf"(?<!\bto )(?<!\bto my )(?<!\bat )(?<!\bat my )\b(?:my )?{_RELATIVE}(?: [a-z]+)?'s (?:\w+ )?{_RECORD}",
        rf"\b{_RECORD} (?:placed |made )?(?:by|of) (?:my )?{_RELATIVE}\b",
        rf"\bon behalf of (?:my )?(?:\w+ )?{_RELATIVE}\b",
        r"\b(?:orders?|accounts?) (?:placed |made )?by \S+@\S+",
        # "…placed orders under their own account. Change the address on their orders."
        r"\b(?:their|his|her) own (?:account|orders?)\b|\b(?:on|of|for|to) their orders\b",
        r"\bevery (?:customer|user|client)'?s?\b",
        # "我老公用我的账号下了单": what is "我的" is the customer's own.
        # "爸妈那边的地址", "我妈家的地址": their place, where a parcel goes.
        f"(?<!到)(?<!到我)(?:{_RELATIVE_ZH}|别的用户|其他用户)\\S{{0,4}}(?<!我)(?<!那边)(?<!那儿)(?<!家)的\\S{{0,3}}?"
        "(?:订单|地址|账户|账号|邮箱|信息|电话|手机号|购买记录|退款|快递|包裹)",
        # "我一个朋友也在你们这买了东西，能帮她改一下收货地址吗": a change to what they bought
        # ("给我妈买的 帮她退了吧" is the customer's own order, bought for her).
        f"(?<![给帮替为])(?<![给帮替为]我)(?:{_RELATIVE_ZH})[^。！？?!，,]{{0,12}}?(?:买|下单|下了|订了)"
        "[^。！？?!]{0,20}?(?:帮|给|替)(?:他|她|他们|她们)\\S{0,2}(?:改|取消|退|换)",
        # "我是帮我妈问的 她账号下那个订单到哪了": the relative's own account.
        f"(?:{_RELATIVE_ZH})[^。！？?!]{{0,24}}?(?:他|她)(?:自己)?的?(?:账号|账户|号(?!码))",
        # "我替我爸打字，他的订单…": typing for another customer.
        f"(?:替|帮|代)我?(?:{_RELATIVE_ZH})打字",
        # A customer id in the text (first_last_1234): the session's own
        # customer never needs to name one, so it points at someone else
        # (unless it says the id is its own: OWN_USER_ID).
        USER_ID,
    ),
    "cancel_order": (r"\bcancel", "取消", "不要了", "退单"),
    "modify_order": (
        r"\b(?:change|modify|update|switch) (?:the |my )?(?:shipping )?address (?:of|for|on) (?:my |the )?order",
        r"\b(?:change|modify|switch|swap) (?:the |my )?(?:item|size|color|colour|payment)",
        r"\bmodify (?:my |the )?order\b",
        r"\bpay (?:with|using) ",
        "修改订单|改订单|改一下订单|订单地址|改成|换支付|改支付",
        "(?:付款|支付)方式",
        "(?:换|改)(?:成|为|用)(?:礼品卡|信用卡|paypal)",
        *ADDRESS_CHANGE,
    ),
    "return_items": (
        r"\breturn(?:ing)?\b(?! policy)",
        r"\bsend (?:it|them) back\b",
        "退货",
        "退回",
        "(?:想|要)退(?!款)",
    ),
    "exchange_items": (
        r"\bexchange",
        r"\bswap (?:it|them) for\b",
        "换货",
        "换一个",
        "换个(?!地址|支付|付款)",
        "调换",
        "换(?:别的|其他)(?:颜色|尺码|尺寸|款)",
    ),
    "refund_status": (
        r"\brefund",
        r"\bmoney back\b.*\b(?:yet|when|status)\b",
        "退款",
        "钱退",
        "退钱",
        "钱.{0,6}退(?!货)",
    ),
    "update_account": (
        r"\b(?:update|change) (?:my )?(?:account|profile|default|home) address",
        r"\bmy (?:account|profile) address\b",
        r"\bupdate my address\b",
        "账户地址",
        "更新地址",
        "账号地址",
        "修改我的地址",
        "个人地址",
        "默认地址",
        *ADDRESS_CHANGE,
    ),
    "delay_complaint": (
        r"\blate\b",
        r"\bdelay",
        r"\bnot (?:yet )?(?:arrived|here)\b",
        r"\bhasn'?t (?:arrived|come)",
        r"\bstill (?:waiting|not)\b",
        r"\btaking (?:so|too) long\b",
        r"\bforever\b",
        "延迟",
        "还没到",
        "迟迟",
        "太慢",
        "这么慢",
        "怎么还没",
        "晚到",
        "延误",
        "(?:还|一直)?没(?:有)?收到",
        "等了.{0,6}(?:天|星期|周|礼拜|月)",
    ),
    "track_shipment": (
        r"\btrack",
        r"\bshipment",
        r"\bshipping status\b",
        r"\bpackage\b",
        r"\bparcel\b",
        r"\bwhere(?:'s| is| are) (?:my|the) (?:package|parcel|delivery|stuff|things|items|shipment)\b",
        r"\bdelivery\b",
        "物流",
        "快递",
        "(?<!款)到哪",
        "包裹",
        "运单",
        "配送",
    ),
    "order_status": (
        r"\border status\b",
        r"\bstatus of (?:my |the )?order",
        r"\bwhere is (?:my|the) order\b",
        r"\bcheck (?:on )?(?:my |the )?order",
        r"\blook up (?:my |the )?order",
        "订单状态",
        "查下订单",
        "查一下订单",
        "查订单",
        "看看订单",
        "订单到哪",
    ),
    "notify": (
        r"\be-?mail me\b",
        r"\bsend me an? (?:e-?mail|notification|message)\b",
        r"\bnotify me\b",
        r"\blet me know by e-?mail\b",
        r"\bsend (?:an? )?(?:e-?mail|notification) to\b",
        r"\bemail (?:it|this|the details) to\b",
        "发邮件",
        "发个邮件",
        "邮件通知",
        "通知我",
        "发封邮件",
        "邮件告诉我",
    ),
    "policy_question": (
        r"\bpolicy\b",
        r"\bhow (?:do|can) i (?:return|exchange|cancel)\b",
        r"\bhow long (?:does|do|will)\b",
        r"\bwhat is your\b",
        r"\bam i allowed\b",
        r"\bcan i return\b",
        r"\bwindow\b",
        "政策",
        "怎么退货",
        "如何退货",
        "多久",
        "多少天",
        "几天内",
        "规定",
        "能不能退",
        "可以退吗",
    ),
    "product_info": (
        r"\bin stock\b",
        r"\bavailable (?:colou?rs|sizes|options)\b",
        r"\bwhat (?:sizes|colou?rs|options)\b",
        r"\bproduct (?:details|info)",
        r"\bdo you (?:sell|have)\b",
        r"\bhow much (?:is|does)\b",
        "有货",
        "有没有货",
        "产品信息",
        "什么颜色",
        "什么尺码",
        "多少钱",
        "型号",
    ),
    "human_handoff": (
        r"\b(?:human|real person|live agent|representative|supervisor|manager)\b",
        r"\btalk to (?:an? )?(?:agent|person|someone)\b",
        "转人工",
        "人工客服",
        "真人",
        "找人工",
        "人工服务",
    ),
}

# Policy phrasings name an action without asking for it ("what is your return
# policy?"); they are blanked out before the action intents are matched.
POLICY_PHRASES: tuple[str, ...] = (
    r"\b(?:return|refund|exchange|cancell?ation|shipping) (?:policy|policies|rules|window)\b",
    r"\bhow (?:do|can|would) i (?:return|exchange|cancel)\b",
    "退换货政策",
    "(?:退货|退款|换货|取消)(?:政策|规定|流程|期限)",
    "(?:怎么|如何|怎样)(?:退货|换货|退款|取消)",
    "(?:多少天|几天|多久)(?:内|之内|以内)?(?:可以|能)?(?:退货|换货|退款)",
)
POLICY_MASKED_INTENTS: tuple[str, ...] = (
    "cancel_order",
    "return_items",
    "exchange_items",
    "refund_status",
)

# A refund mentioned inside a return or cancel request is part of it, unless
# the customer asks where an existing refund stands.
REFUND_QUESTION: tuple[str, ...] = (
    r"\b(?:status|where)\b.*\brefund",
    r"\brefund\b.*\b(?:status|yet|when)\b",
    "退款.*(?:到|进度|什么时候|多久|状态)",
)

# Words that make an address change about the account, not an order.
# "The address of my order": an order's, even before the order is named.
ORDER_WORDS: tuple[str, ...] = (
    # "the pending desk lamp order", "这单", "刚下的单": an order, however it is pointed at.
    r"\b(?:my|the|this|that)(?: [\w-]+){0,3} order\b",
    r"\border'?s\b",
    "订单|(?:这|那)(?:一|个)?单|(?:刚|新|上次)下的(?:这|那)?单",
)
ACCOUNT_WORDS: tuple[str, ...] = (
    r"\baccount\b",
    r"\bprofile\b",
    r"\bdefault (?:shipping )?address\b",
    r"\baddress on file\b",
    "账户",
    "账号",
    "个人",
    r"默认的?(?:收货|送货|寄送|配送)?\s?(?:地址|address)",
)

# A bare order id or the word "order" asks for its status only when nothing
# more specific was asked.
WEAK_ORDER_STATUS: tuple[str, ...] = (r"#?\bw\d{7}\b", r"\borders?\b", "订单")

CANCEL_REASONS: dict[str, tuple[str, ...]] = {
    "ordered by mistake": (
        r"\bby mistake\b",
        r"\bmistaken",
        r"\baccident",
        "下错",
        "买错",
        "误下",
        "不小心",
    ),
    "no longer needed": (
        r"\bno longer need",
        r"\bdon'?t (?:need|want)",
        r"\bchanged my mind\b",
        "不需要",
        "用不上",
        "不想要",
        "不要了",
    ),
}

# Bounded by letters, not \b: "改用PayPal" has no word boundary between 用 and p.
PAYMENT_WORDS: dict[str, tuple[str, ...]] = {
    "gift_card": (r"(?<![a-z])gift ?card(?![a-z])", "礼品卡"),
    "paypal": (r"(?<![a-z])paypal(?![a-z])",),
    "credit_card": (
        r"(?<![a-z])credit ?card(?![a-z])",
        r"(?<![a-z])visa(?![a-z])",
        r"(?<![a-z])mastercard(?![a-z])",
        "信用卡",
    ),
}
