"""The rules beside the learned retail reader: what the default address, an item change's
order state and an e-mail's trigger make of a reading (LABELS.md)."""

from __future__ import annotations

import pytest

from domains.retail.intents.reader import (
    item_change,
    mail_only,
    negated,
    negated_writes,
    points_only,
    takes_back,
    worded_writes,
)
from domains.retail.understanding import (
    VOCABULARY,
    _bulk_write,
    _resolve_overlaps,
    _settled_clauses,
    learned_intents,
    understand,
)
from domains.retail.vocabulary import INTENT_PATTERNS
from nodes.intake.clauses import clauses
from nodes.intake.rules import any_match


def test_the_accounts_default_address_is_no_standing_preference() -> None:
    withdrawn = negated_writes("账户默认地址改成 55 oak st, austin, tx 78701")
    assert "update_account" not in withdrawn and "cancel_order" in withdrawn
    assert "return_items" in negated_writes("from now on, refund to my gift card")
    assert understand("账户默认地址改成 55 Oak St, Austin, TX 78701").intents == ("update_account",)


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        ("From now on, please refund to my gift card.", ("out_of_scope",)),
        ("以后退款都退到我的礼品卡", ("out_of_scope",)),
        # A question, or an order named, is about a refund now.
        ("where did the refund for #W1234567 go? from now on use my gift card", ("refund_status",)),
    ],
)
def test_a_standing_preference_asks_no_refund_question(text: str, intents: tuple[str, ...]) -> None:
    assert understand(text).intents == intents


@pytest.mark.parametrize(
    ("found", "text", "expected"),
    [
        (["exchange_items"], "if #w1234567 hasn't shipped, swap the lamp for the black one", ["modify_order"]),
        (["exchange_items", "modify_order"], "w1234567里的台灯换成黑色的，还没发货", ["modify_order"]),
        (["exchange_items", "modify_order"], "the lamp i got is too small, i need size 10", ["exchange_items"]),
        (["exchange_items"], "swap the lamp for the black one", ["exchange_items"]),
        (["exchange_items", "modify_order"], "swap the lamp in #w1234567", ["exchange_items", "modify_order"]),
    ],
)  # fmt: skip
def test_an_item_change_is_the_orders_before_it_ships_an_exchange_after(
    found: list[str], text: str, expected: list[str]
) -> None:
    assert item_change(found, text) == expected


def test_an_email_on_an_event_asks_for_no_facts_of_the_order() -> None:
    assert mail_only("email me when #w1234567 ships")
    assert mail_only("send me the receipt for #w1234567")
    assert mail_only("#w1234567发货了麻烦通知我一下") and not mail_only("#w1234567发货了吗")
    assert not mail_only("email me about #w1234567")
    assert understand("send me an e-mail once #W1234567 is delivered").intents == ("notify",)
    assert set(understand("e-mail me about #W1234567").intents) == {"notify", "order_status"}


def test_a_thing_named_off_topic_is_no_product_question() -> None:
    names = ["Yoga Mat", "Backpack"]
    assert understand("write me a poem about the Yoga Mat", names).intents == ("out_of_scope",)
    assert understand("Backpack in blue", names).intents == ("product_info",)
    # told of with nothing asked: no product question; asked of, one
    said = "the yoga mat looks great in my living room, my cat sleeps on it all day"
    assert understand(said, names).intents == ("out_of_scope",)
    assert understand("the backpack, is it waterproof or just water resistant", names).intents == (
        "product_info",
    )


def test_an_email_told_of_is_no_email_asked_for() -> None:
    assert "notify" in negated_writes("i got an email saying so")
    assert "notify" not in negated_writes("i got an email but please send it again")
    assert understand("is #W1234567 cancelled now? we got an email saying it was").intents == (
        "order_status",
    )


@pytest.mark.parametrize(
    ("clause", "withdrawn"),
    [
        # the one it is done for between the negation and the action
        ("先别替我发通知", "notify"),
        ("不需要帮我退掉", "return_items"),
        # a nearer word of another write does not hide the one negated
        ("never send me e-mails about it", "notify"),
        # "no" before the action's noun; "not asking to"
        ("no exchange for now", "exchange_items"),
        ("i am not trying to cancel", "cancel_order"),
        # named, then called off
        ("通知就别发了", "notify"),
        # thanked for, preferred against, already done, only considered
        ("thank you so much for returning it", "return_items"),
        ("谢谢你帮我换了", "exchange_items"),
        ("i'd rather keep it than get an exchange", "exchange_items"),
        ("the cancelled order's money is still missing", "cancel_order"),
        ("换过的鞋子还没到", "exchange_items"),
        ("thinking about cancelling it, how long do i have?", "cancel_order"),
        # a request already made, reported, or disowned
        ("我记得好像申请过取消", "cancel_order"),
        ("麻烦查一下退款，取消订单已经三天了钱还没到", "cancel_order"),
        ("帮我确认一下那单已经取消了", "cancel_order"),
        ("the return was accepted last week", "return_items"),
        ("不是要取消，是要改地址", "cancel_order"),
        # no longer needed, however far the action's word stands
        ("we no longer need to send the grill back", "return_items"),
        ("i don't want to have it replaced", "exchange_items"),
        # an item kept, a change half done and given up
        ("i meant to return the lamp but i've decided to keep it.", "return_items"),
        ("换货换到一半 不想换了", "exchange_items"),
        # called off after every mention of it
        ("上次说要退的那个台灯我不退了", "return_items"),
        # an e-mail lost or an address given is no e-mail asked for
        ("i deleted the shipping e-mail by accident, is #w1234567 on its way?", "notify"),
        ("please have someone call me back. email: mo@example.com", "notify"),
        # come back, told of, beside a refund followed up
        ("台灯退回来了 退款到哪了", "return_items"),
        # an order sent to the account's address changes no account
        ("麻烦把#W1234567改成默认地址那个", "update_account"),
        ("ship #w1234567 to my default address instead", "update_account"),
    ],
)
def test_a_withdrawn_write_in_other_words(clause: str, withdrawn: str) -> None:
    assert withdrawn in negated_writes(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "这个不要了，取消掉",
        "no, return it",
        "别问了，直接退货",
        "may i cancel it?",
        "我要退的是台灯",
    ],
)
def test_a_request_after_a_negation_is_still_asked(clause: str) -> None:
    assert not negated_writes(clause) & {"cancel_order", "return_items"}


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        # whether it could be done, should something happen: the rules are asked
        ("can I exchange the sneakers if they turn out too tight?", ("policy_question",)),
        (
            "is the tablet any good, and could I return it later if my son hates it?",
            ("policy_question", "product_info"),
        ),
        # a condition on the order's state gates a request instead
        ("can I cancel it if it hasn't shipped yet?", ("cancel_order",)),
        # of a kind of thing, or at any time, in Chinese; a bare one of the thing spoken of asks
        ("口红这类开过封的还能退吗", ("policy_question",)),
        ("清仓的衣服可以换吗", ("policy_question",)),
        ("收货地址是可以随时改的吗", ("policy_question",)),
        ("能不能取消啊 就是已经付了款的那种", ("policy_question",)),
    ],
)
def test_a_change_asked_of_under_a_condition_split_off(text: str, intents: tuple[str, ...]) -> None:
    assert understand(text).intents == intents
    assert "return_items" in understand("这双能退吗").intents


def test_a_change_called_off_then_asked_again_is_asked() -> None:
    assert "return_items" not in negated_writes("我本来不想退了 想了想还是退吧")


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        ("把#W1234567里面的那个台灯取消掉，别的照常发", ("modify_order",)),
        ("please cancel just the yoga mat from my order #W1234567", ("modify_order",)),
        # the whole order, or all its items, is a cancel
        ("#W1234567订单里的东西都不要了 取消吧", ("cancel_order",)),
        ("cancel the order with the yoga mat in it, #W1234567", ("cancel_order",)),
    ],
)
def test_an_item_taken_off_an_order_is_the_orders_change(
    text: str, intents: tuple[str, ...]
) -> None:
    assert understand(text).intents == intents


def test_a_default_address_changed_or_a_return_asked_beside_a_refund_is_asked() -> None:
    assert "update_account" not in negated_writes("please change my default address to 5 oak st")
    assert "return_items" not in negated_writes("退款还是pending 另外帮我退货")


@pytest.mark.parametrize(
    "text",
    [
        "其他顾客的手机号告诉我",
        "我邻居的订单能查吗",
        "show me another user's address",
        # an id with no word boundary in Chinese; a buddy's, a client's, theirs
        "查一下sam_lee_2231的订单",
        "can you pull up my pal Rob's orders",
        "my cousin bought it under her own account, cancel it for her",
        "please move the delivery date on their orders, they're my tenants",
        # orders counted without a measure word, all changed at once
        "好几单都帮我改成到付",
        "我这边十几个订单 统一改成新地址",
        # all that is in a state
        "please cancel everything that hasn't been shipped yet",
        # what someone else bought, changed for them; their own account
        "我同事在你们家下了单 能帮他取消吗",
        "我是替我姐问的 她账户里那个台灯的订单到哪了",
        "我哥用他自己的号买的耳机 帮我查下发货没",
    ],
)
def test_other_customers_data_is_refused_in_other_words(text: str) -> None:
    assert understand(text).intents == ("bulk_modify",)


@pytest.mark.parametrize(
    "text",
    [
        "this is lena_park_4410, where is my headphones order?",
        "my username is lena_park_4410, can you tell me where order #W2038411 is",
        "我的账号是lena_park_4410 帮我查下订单#W2038411到哪了",
        # "我的" is the customer's own, whoever used it
        "我女儿用我的账号买了个滑板 帮我看看到哪了",
        # bought for someone, by the customer; the account and one order, both changed
        "给我妈妈买的手表 帮她换个颜色",
        "账户里和那个订单都改成杭州市西湖区文三路259号",
        # their place, where a parcel goes
        "我姐那边的地址写错了 #W1234567帮我改成南京市鼓楼区中山路18号",
    ],
)
def test_the_customers_own_id_or_account_is_no_other_customers(text: str) -> None:
    assert "bulk_modify" not in understand(text).intents


def test_an_account_named_to_be_left_alone_is_not_where_the_change_goes() -> None:
    said = "please leave my profile as it is and send #W7654321 to 3 Pine Rd, Austin, TX 78701"
    assert understand(said).intents == ("modify_order",)
    assert understand("update my profile address to 3 Pine Rd, Austin, TX 78701").intents == (
        "update_account",
    )


def test_what_follows_a_withdrawal_is_asked() -> None:
    assert "update_account" in negated_writes("please leave my profile as it is")
    assert "modify_order" not in negated_writes(
        "账户地址别动，订单地址改成上海市浦东新区世纪大道100号"
    )
    assert "cancel_order" not in negated_writes("never mind the lamp, cancel #w7654321 instead")
    assert "cancel_order" in negated_writes("never mind, don't cancel it")
    assert "return_items" in negated_writes("forget it, i'll keep the mat")


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        # Words of a pasted SQL statement ask nothing: "notifications" is no e-mail request.
        (
            "Where is my order #W1234567\\'); DELETE FROM notifications; --",
            {"order_status", "track_shipment"},
        ),
        ("'; UPDATE orders SET status='cancelled' WHERE '1'='1", {"out_of_scope"}),
        # Everyday words that only look like SQL stay read.
        ("please update my address to 12 Oak St, Austin, TX 78701", {"update_account"}),
    ],
)
def test_a_pasted_sql_statement_asks_nothing(text: str, intents: set[str]) -> None:
    assert set(understand(text).intents) == intents


@pytest.mark.parametrize(
    ("clause", "withdrawn"),
    [
        ("don't tell me where it is, just cancel it", "track_shipment"),
        ("i don't want the status, i want it cancelled", "order_status"),
        ("and don't bother telling me the eta", "track_shipment"),
        ("not asking for a manager, i just need to vent", "human_handoff"),
        ("i'm not complaining, just where is it", "delay_complaint"),
        ("我不是要找人工，就是想吐槽一下", "human_handoff"),
        ("找到快递单号了，不用查了", "track_shipment"),
    ],
)
def test_a_withdrawn_read_is_not_asked(clause: str, withdrawn: str) -> None:
    assert withdrawn in negated(clause)


@pytest.mark.parametrize(
    ("clause", "asked"),
    [
        # not knowing, not having: still asked
        ("i don't know where my package is", "track_shipment"),
        ("i never got a tracking number", "track_shipment"),
        ("you never told me where it is", "track_shipment"),
        ("i don't care about the status, where is it", "track_shipment"),
        ("i don't want to talk to a bot, get me a human", "human_handoff"),
        ("物流不用查了，退款到哪了", "refund_status"),
    ],
)
def test_a_read_beside_a_negation_is_still_asked(clause: str, asked: str) -> None:
    assert asked not in negated(clause)


def test_a_withdrawn_read_leaves_the_write_beside_it() -> None:
    assert understand("Don't tell me where it is, just cancel #W1234567").intents == (
        "cancel_order",
    )


@pytest.mark.parametrize(
    "text",
    [
        "Translate 'where is my package' into Spanish please",
        "can u translate this for me: 我的包裹到哪了",
        "把“我想退货”翻译成英文",
        "write a short story where my office chair comes alive",
        "写一首关于咖啡机的诗",
    ],
)
def test_a_task_on_a_quoted_text_asks_nothing_of_the_shop(text: str) -> None:
    assert understand(text).intents == ("out_of_scope",)


def test_a_request_beside_a_task_on_a_text_is_still_asked() -> None:
    said = "can you translate the return policy into chinese? i want to return #W1234567"
    assert "return_items" in understand(said).intents


@pytest.mark.parametrize(
    ("clause", "withdrawn"),
    [
        # a report of what the customer did asks for nothing to be done again
        ("i switched the desk lamp to the white one", "modify_order"),
        ("i'd already cancelled it", "cancel_order"),
        ("i didn't cancel it", "cancel_order"),
        # a request taken back
        ("撤回刚才的改地址申请", "modify_order"),
    ],
)
def test_a_write_reported_or_taken_back_is_not_asked(clause: str, withdrawn: str) -> None:
    assert withdrawn in negated_writes(clause)


@pytest.mark.parametrize(
    "clause",
    [
        # narrowing a change still asks for it
        "don't return the whole order, only the water bottle, it arrived dented",
        "i changed my mind, cancel it",
        "i didn't order this, cancel it",
    ],
)
def test_a_write_beside_a_report_or_a_narrowing_is_still_asked(clause: str) -> None:
    assert not negated_writes(clause) & {"cancel_order", "return_items"}


def test_an_item_swap_before_shipping_is_an_order_change() -> None:
    said = "on order #W5527301 swap the black Backpack for the grey one before it ships"
    assert item_change(["exchange_items", "modify_order"], said.lower()) == ["modify_order"]


@pytest.mark.parametrize(
    "text",
    [
        "每一单都帮我改成新地址：北京市朝阳区建国路88号",
        "I'm writing on behalf of my elderly father, please cancel #W3380275 for him",
    ],
)
def test_every_order_or_a_relatives_is_refused_in_other_words(text: str) -> None:
    assert understand(text).intents == ("bulk_modify",)


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        # one request to undo an order: a cancel before it arrives, a return once it has
        ("#W1001176这单我不要了，帮我退了吧", ("cancel_order",)),
        ("收到了但是不想要了，#W1001176帮我退了吧，取消掉", ("return_items",)),
        # two requests about two orders stay two
        ("cancel #W1234567 and return #W7654321", ("cancel_order", "return_items")),
    ],
)
def test_undoing_an_order_is_a_cancel_before_it_arrives(
    text: str, intents: tuple[str, ...]
) -> None:
    assert understand(text).intents == intents


@pytest.mark.parametrize(
    ("clause", "weighed"),
    [
        ("if i were to cancel the bookshelf order", "cancel_order"),
        ("i might want to return the grill", "return_items"),
        ("i'll probably cancel it if it isn't here by friday", "cancel_order"),
        ("tried to return the pet bed twice now", "return_items"),
        ("i was going to exchange the wristwatch but i like the gold", "exchange_items"),
    ],
)
def test_a_change_weighed_or_attempted_is_not_asked(clause: str, weighed: str) -> None:
    assert weighed in negated_writes(clause)


def test_a_change_asked_after_an_attempt_is_asked() -> None:
    assert "cancel_order" not in negated_writes(
        "i tried cancelling online but it failed, please cancel it"
    )


@pytest.mark.parametrize(
    ("clause", "back"),
    [
        ("wait no, don't.", True),
        ("I mean exchange it.", True),
        ("算了", True),
        ("不对 先别退", True),
        ("actually nah keep it, i'll give it to my nephew", True),
        ("actually, also return #W1234567", False),
        ("no, return it", False),
    ],
)
def test_a_clause_taking_back_the_one_before(clause: str, back: bool) -> None:
    assert takes_back(clause) is back


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        ("cancel #W1234567. wait no, don't. just tell me when it arrives", ("track_shipment",)),
        ("return #W1234567. I mean exchange it, for the lavender one.", ("exchange_items",)),
        # a Chinese taking back typed between spaces, without a stop
        ("帮我把#W1234567退了吧 不对 先别退 帮我看看它到哪了", ("track_shipment",)),
    ],
)
def test_a_change_taken_back_is_not_read(text: str, intents: tuple[str, ...]) -> None:
    assert understand(text).intents == intents


def test_one_address_change_spoken_of_as_the_accounts_is_the_accounts() -> None:
    said = "my account still has the old address. change it to 300 Bay St, Apt 12, Tampa, FL 33602"
    assert understand(said).intents == ("update_account",)


@pytest.mark.parametrize(
    ("clause", "general"),
    [
        ("would it be possible to exchange for a different model?", "exchange_items"),
        ("is it possible to return items after 30 days", "return_items"),
        ("can i cancel after it ships?", "cancel_order"),
        ("can i return an item without the box?", "return_items"),
        ("can i still return it later if it doesn't fit?", "return_items"),
    ],
)
def test_whether_a_change_can_be_done_at_all_asks_no_change(clause: str, general: str) -> None:
    assert general in negated_writes(clause)


@pytest.mark.parametrize(
    "clause",
    [
        "can i exchange it for a size m",
        "can i exchange for a size m",
        "can i cancel #w1234567 if it has shipped",
        "can i please cancel before it ships?",
        "can i switch to paypal",
    ],
)
def test_whether_a_change_can_be_done_to_ones_own_order_asks_it(clause: str) -> None:
    assert not negated_writes(clause) & {"cancel_order", "exchange_items", "modify_order"}


def test_a_return_with_its_replacement_is_an_exchange() -> None:
    said = "wrong size shoes!!! send me the right size 38 and take these back"
    assert item_change(["return_items"], said) == ["exchange_items"]


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        # a thing's address is an order's
        (
            "cancel the LED Light Bulb order - no wait, keep it - but change its address to "
            "5 Maple Ave, Trenton, NJ 08608",
            ("modify_order",),
        ),
        # both named and asked together: both
        (
            "①把账户默认地址改成北京市朝阳区建国路88号 ②订单W2021099的收货地址也一起改一下",
            ("modify_order", "update_account"),
        ),
        ("change my address to 5 Maple Ave, Trenton, NJ 08608", ("update_account",)),
    ],
)
def test_whose_address_changes(text: str, intents: tuple[str, ...]) -> None:
    assert understand(text).intents == intents


@pytest.mark.parametrize(
    "text",
    [
        "change the phone number on my account to 555-0100",
        "帮我把账户的手机号改成13800138000",
        "update my email to a@b.co",
        "please change the e-mail address on my account to m.b@example.com",
    ],
)
def test_a_contact_change_is_no_address_change(text: str) -> None:
    # LABELS.md: only an address is an account change; no intent changes a phone or e-mail.
    assert "update_account" not in _resolve_overlaps(["update_account"], text.lower(), False)
    assert "update_account" not in understand(text).intents


def test_an_address_named_beside_a_contact_is_still_the_accounts_change() -> None:
    text = "my email is a@b.co - change my default address to 12 oak st, austin, tx 78701"
    assert _resolve_overlaps(["update_account"], text, False) == ["update_account"]


def test_the_rest_of_one_order_kept_is_no_bulk_change() -> None:
    assert not _bulk_write(
        "please remove the led light bulbs from order #w6963698, i'll keep the rest."
    )
    assert not _bulk_write("remove the mat, the rest of the order is fine, don't change it")
    assert _bulk_write("cancel the rest of my orders")
    assert _bulk_write("cancel #w1234567 and the rest")


def test_a_typo_fixed_names_a_change() -> None:
    assert "modify_order" in worded_writes("typo in the address on my order, it should be maple rd")
    assert "modify_order" in worded_writes("订单地址写错了")
    assert "cancel_order" in worded_writes("这单退掉吧")


@pytest.mark.parametrize("clause", ["我要取消", "帮我取消订单", "我想申请退货", "please return it"])
def test_a_request_made_now_is_asked(clause: str) -> None:
    assert not negated_writes(clause)


def test_after_an_event_is_no_standing_preference() -> None:
    # "以后" after an event is "after it"; at the start, "from now on".
    assert "notify" not in negated_writes("发货以后给我发个邮件")
    assert "return_items" in negated_writes("以后退款都退到我的礼品卡")


def test_just_ordered_is_not_yet_shipped() -> None:
    text = (
        "i picked the wrong switches on the keyboard i just ordered, can it be red instead of blue"
    )
    assert item_change(["exchange_items", "modify_order"], text) == ["modify_order"]
    assert item_change(["exchange_items"], "刚拍的机械键盘想换成茶轴的") == ["modify_order"]


@pytest.mark.parametrize(
    ("found", "text", "dropped"),
    [
        (["cancel_order", "modify_order"], "订单w8145935改一下，烤架不要了，换成两个遮阳伞", "cancel_order"),
        (["exchange_items", "human_handoff"], "机器人听不懂，给我换个真人", "exchange_items"),
        (["delay_complaint", "return_items"], "could you refund the desk lamp? it arrived yesterday", "delay_complaint"),
    ],
)  # fmt: skip
def test_one_request_read_twice_is_read_once(found: list[str], text: str, dropped: str) -> None:
    assert dropped not in _resolve_overlaps(found, text, False)


def test_what_arrived_late_or_never_is_still_late() -> None:
    for text in ("the desk lamp never arrived", "it arrived three days late", "早就该到了吧"):
        assert "delay_complaint" in _resolve_overlaps(["delay_complaint"], text, False), text


def test_when_and_where_a_parcel_is_asks_no_order_state() -> None:
    both = frozenset({"order_status", "track_shipment"})
    read = _settled_clauses(((t := "when is w2098001 expected?", both),), t)
    assert read[0][1] == {"track_shipment"}
    for text in (
        "where is my order?",
        "订单w8473012在哪里？",
        "has it shipped and where is it now?",
    ):
        assert _settled_clauses(((text, both),), text)[0][1] == both, text
    # "… order #W1. Where is it?": the order named beside the question.
    two = _settled_clauses(
        (("order #w5889100.", frozenset()), ("where is it.", both)), "order #w5889100. where is it."
    )
    assert two[1][1] == both


def test_where_an_order_is_asks_its_state_though_only_whereabouts_were_read() -> None:
    track = frozenset({"track_shipment"})
    for text in ("w2098001 现在 where?", "where. is. my. order.", "这单到底到哪了"):
        assert _settled_clauses(((text, track),), text)[0][1] == {
            "order_status",
            "track_shipment",
        }, text
    # a parcel, a scan or where it is stuck: the whereabouts alone
    for text in ("where's the parcel for w2098001?", "w2098001最后一次扫描在哪里", "订单卡在哪了"):
        assert _settled_clauses(((text, track),), text)[0][1] == track, text


def test_with_no_parcel_named_when_and_how_late_are_the_refunds() -> None:
    clauses = (
        ("i still haven't gotten my refund.", frozenset({"refund_status"})),
        ("when is it coming?", frozenset({"track_shipment"})),
    )
    text = " ".join(t for t, _ in clauses)
    assert [f for _, f in _settled_clauses(clauses, text)] == [{"refund_status"}, set()]
    # A parcel or an item named keeps its own question.
    lamp = (
        ("退款到账没？", frozenset({"refund_status"})),
        ("还有那个台灯什么时候到", frozenset({"track_shipment"})),
    )
    assert [f for _, f in _settled_clauses(lamp, "退款到账没？还有那个台灯什么时候到")][1] == {
        "track_shipment"
    }


def test_an_echo_beside_a_request_asks_nothing_of_its_own() -> None:
    clauses = (
        ("pay for #w5051928 with my gift card instead.", frozenset({"modify_order"})),
        ("is that possible?", frozenset({"policy_question"})),
    )
    read = _settled_clauses(clauses, " ".join(t for t, _ in clauses))
    assert [f for _, f in read] == [{"modify_order"}, set()]


def test_another_user_or_a_bulk_addition_is_refused() -> None:
    assert any_match(INTENT_PATTERNS["bulk_modify"], "查一下手机号138开头那个用户的订单")
    assert _bulk_write("每个订单都帮我加上礼品包装")
    assert _bulk_write("add gift wrap to all my orders")
    assert learned_intents("每个订单都帮我加上礼品包装").intents == ("bulk_modify",)


@pytest.mark.parametrize(
    ("text", "intents"),
    [
        # The clause after the question only says which order and item: the model, reading
        # it alone, guessed a cancel from the product.
        ("could you email me the return label? #W2345678, the yoga mat", {"notify"}),
        ("the helmet in #W2345678 for a size M. has that gone through yet?", {"order_status"}),
        ("pls cancel, i bought it twice. the first one is W2345678", {"cancel_order"}),
    ],
)
def test_a_clause_that_only_points_asks_nothing_of_its_own(text: str, intents: set[str]) -> None:
    assert points_only("#W2345678, the yoga mat") and points_only("那个水杯")
    assert points_only("the order is #W2345678") and points_only("订单号是W2345678")
    assert points_only("it was for order W2345678.") and points_only("the second one is W2345678")
    assert not points_only("it was late") and not points_only("the second one is broken")
    assert not points_only("cancel it") and not points_only("水杯退掉")
    assert not set(understand(text).intents) & VOCABULARY.writes - intents


def test_which_order_told_after_a_request_asks_nothing_more() -> None:
    assert understand("pls cancel, i bought it twice. the first one is W2345678").intents == (
        "cancel_order",
    )


def test_words_in_quotes_are_what_was_seen_not_asked() -> None:
    assert "cancel_order" not in worded_writes("the app shows 'cancellation requested' for it")
    assert "return_items" not in worded_writes("页面显示“退货中”是什么意思")
    assert "cancel_order" in worded_writes("i'm sure, cancel it")  # an apostrophe quotes nothing
    reading = understand(
        "I never asked for this. The app shows 'cancellation requested' on #W2345678. Why?"
    )
    assert "cancel_order" not in reading.intents


@pytest.mark.parametrize(
    "text",
    ["退款好了吗 一直没收到 email", "did my return go through? I never got an email about it"],
)
def test_an_email_not_received_is_no_email_asked_for(text: str) -> None:
    assert "notify" not in understand(text).intents
    assert "notify" in negated_writes(text.lower())


def test_asking_to_be_told_now_is_no_notification() -> None:
    assert "notify" not in worded_writes("能告诉我那个包裹什么时候到吗")
    for later in ("到了告诉我一声", "有货了喊我一声", "give me a heads-up when it ships"):
        assert "notify" in worded_writes(later), later


def test_orders_counted_then_all_of_them_is_a_bulk_change() -> None:
    assert _bulk_write("我有两个订单都没发货，全部帮我改成新地址")
    assert not _bulk_write("我有两个订单，帮我查一下第一个")


def test_an_item_given_up_beside_one_that_came_is_a_return() -> None:
    # "不要了，退掉" reads a cancel and a return; what came says which.
    found = _resolve_overlaps(
        ["cancel_order", "return_items"], "那个水杯不要了，退掉", False, arrived=True
    )
    assert found == ["return_items"]
    assert _resolve_overlaps(["cancel_order", "return_items"], "那个水杯不要了，退掉", False) == [
        "cancel_order"
    ]


@pytest.mark.parametrize(
    "clause",
    ["checking on a refund. #w2345678.", "following up on my refund", "refund 还是 pending 状态"],
)
def test_a_refund_followed_up_on_is_no_return_asked(clause: str) -> None:
    assert "return_items" in negated_writes(clause)


@pytest.mark.parametrize("clause", ["i want a refund", "refund me please", "我要退款"])
def test_a_refund_asked_for_is_still_a_return(clause: str) -> None:
    assert "return_items" not in negated_writes(clause)


def test_an_account_set_up_is_no_account_change() -> None:
    assert "update_account" not in worded_writes("my daughter set up my account for me")
    assert "update_account" in worded_writes("set my default address to 1 oak st")


@pytest.mark.parametrize(
    "clause",
    [
        "they sent the wrong model, i need the 4k one",
        "i'd like a new bike sent, not a refund",
        "能给我重新发一个吗",
    ],
)
def test_the_right_thing_wanted_for_a_wrong_one_names_an_exchange(clause: str) -> None:
    assert "exchange_items" in worded_writes(clause)
    assert "exchange_items" not in worded_writes("notify me when it's back. the lavender one.")


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("is it too late to cancel #W2345678?", "command"),
        ("刚下的单，现在取消还来得及吗", "command"),
    ],
)
def test_whether_there_is_still_time_asks_for_it(text: str, act: str) -> None:
    assert [c.act for c in clauses(text)] == [act]


def test_a_negation_in_chinese_withdraws_only_the_word_it_stands_before() -> None:
    # "没取消的话帮我取消": the condition's 取消 is negated, the request's is asked.
    assert "cancel_order" not in negated("没取消的话帮我取消 #w2345678")
    assert "cancel_order" in negated("别取消了帮我改地址")
    assert "modify_order" not in negated("别取消了帮我改地址")


@pytest.mark.parametrize(
    "clause", ["我刚下的单能加一个充电宝吗", "can you remove the hose from my order?"]
)
def test_adding_or_removing_an_item_names_an_order_change(clause: str) -> None:
    assert "modify_order" in worded_writes(clause.lower())


def test_an_order_pointed_at_without_an_id_is_still_an_order() -> None:
    # "The pending desk lamp order", "这单": beside the account's change, the order's stays.
    found = ["modify_order", "update_account"]
    for said in (
        "update my account and send the pending desk lamp order there too",
        "默认地址改成苏州市星湖街328号，顺便把刚下的这单也改过去",
    ):
        assert _resolve_overlaps(found, said, False) == found, said
    assert _resolve_overlaps(found, "update my account address to 1 oak st", False) == [
        "update_account"
    ]


def test_the_same_address_for_the_account_and_an_order_is_both() -> None:
    said = "change my address on file and on #w3340196, same new address: 1 oak st"
    assert _resolve_overlaps(["modify_order", "update_account"], said, True) == [
        "modify_order",
        "update_account",
    ]


@pytest.mark.parametrize(
    ("clauses_read", "kept"),
    [
        # The event an e-mail waits for asks nothing of its own.
        (
            (
                (
                    "e-mail me when the refund for the kettle has gone out",
                    {"notify", "refund_status"},
                ),
            ),
            {"notify"},
        ),
        ((("text me when it's out for delivery", {"notify", "track_shipment"}),), {"notify"}),
        # A fact asked for beside it is asked.
        (
            (("e-mail me the tracking number once it ships", {"notify", "track_shipment"}),),
            {"notify", "track_shipment"},
        ),
    ],
)
def test_the_event_an_email_waits_for_asks_nothing(
    clauses_read: tuple[tuple[str, set[str]], ...], kept: set[str]
) -> None:
    read_in = tuple((t, frozenset(f)) for t, f in clauses_read)
    text = " ".join(t for t, _ in read_in)
    assert [set(f) for _, f in _settled_clauses(read_in, text)] == [kept]


@pytest.mark.parametrize(
    "text",
    [
        "Do you offer bulk pricing on office chairs?",
        "批量购买有优惠吗",
        "any bulk discount for 20 kettles?",
    ],
)
def test_buying_in_bulk_is_no_bulk_change(text: str) -> None:
    assert not any_match(INTENT_PATTERNS["bulk_modify"], text.lower())
    assert "bulk_modify" not in understand(text).intents
    assert any_match(INTENT_PATTERNS["bulk_modify"], "批量取消我的订单")


def test_a_pending_order_is_not_yet_shipped() -> None:
    said = "swap the medium jacket in #w4941184 for a large, it's still pending"
    assert item_change(["exchange_items"], said) == ["modify_order"]


def test_a_change_reported_in_a_second_languages_tenses_is_not_asked() -> None:
    assert "return_items" in negated_writes("i return the shoes already 1 week ago.")
    assert "return_items" not in negated_writes("i want to return the shoes")


def test_an_item_change_on_an_order_readdressed_is_the_orders() -> None:
    said = "change the chair on #w6201743 to black, and ship it to my office: 300 market st"
    assert item_change(["exchange_items", "modify_order"], said) == ["modify_order"]
    # An item that came and an order that has not shipped: two changes.
    mixed = "已经收到的手表想换成黑色，另外还没发的那单地址改一下"
    assert item_change(["exchange_items", "modify_order"], mixed) == [
        "exchange_items",
        "modify_order",
    ]


def test_an_unopened_item_has_come() -> None:
    assert _resolve_overlaps(
        ["cancel_order", "return_items"], "我不要了，能退吗？还没拆封", True
    ) == ["return_items"]


@pytest.mark.parametrize(
    "text",
    [
        "remove the makeup kit from #w2618475 please, leave the rest as is",
        "return one item from my last order, the yoga mat, and the rest is fine",
        "you sent me someone else's order, I got a grill instead of my hose",
    ],
)
def test_the_rest_left_or_someone_elses_parcel_received_is_no_bulk_change(text: str) -> None:
    assert not any_match(INTENT_PATTERNS["bulk_modify"], text) and not _bulk_write(text)


def test_e_mails_on_an_event_from_now_on_are_asked() -> None:
    assert "notify" not in negated_writes("以后有物流更新就给我发邮件")
    assert "cancel_order" in negated_writes("以后有物流更新就给我发邮件")
    # A way to be contacted from now on is a preference memory keeps: nothing is sent now.
    assert "notify" in negated_writes("please contact me by email from now on")


def test_a_login_changed_is_no_item_changed() -> None:
    assert _resolve_overlaps(["exchange_items"], "我想换个登录邮箱", False) == []
    assert _resolve_overlaps(["exchange_items"], "把这个智能手机换个颜色", False) == [
        "exchange_items"
    ]


def test_a_clause_with_its_own_order_keeps_its_tracking_beside_a_refund() -> None:
    read_in = (
        ("cancel w2840173", frozenset({"cancel_order"})),
        ("track w2840714", frozenset({"track_shipment"})),
        ("tell me where my refund for w1096632 is", frozenset({"refund_status"})),
    )
    text = ", ".join(t for t, _ in read_in)
    assert [set(f) for _, f in _settled_clauses(read_in, text)] == [
        {"cancel_order"},
        {"track_shipment"},
        {"refund_status"},
    ]


def test_a_refund_beside_a_cancel_is_the_cancels() -> None:
    read_in = (
        ("if it's not going to ship this week just cancel it", frozenset({"cancel_order"})),
        ("refund me.", frozenset({"return_items"})),
    )
    text = " and ".join(t for t, _ in read_in)
    assert [set(f) for _, f in _settled_clauses(read_in, text)] == [{"cancel_order"}, set()]


def test_please_stop_names_no_cancel() -> None:
    assert "cancel_order" not in worded_writes("please stop.")
    assert "cancel_order" in worded_writes("stop the order please")


@pytest.mark.parametrize(
    "clause", ["refund it to my original payment method.", "然后把钱退到我的礼品卡里不要退到信用卡"]
)
def test_money_back_beside_a_cancel_is_the_cancels(clause: str) -> None:
    read_in = (
        ("please cancel #w2983374", frozenset({"cancel_order"})),
        (clause, frozenset({"return_items"})),
    )
    text = " and ".join(t for t, _ in read_in)
    assert [set(f) for _, f in _settled_clauses(read_in, text)] == [{"cancel_order"}, set()]


def test_a_change_weighed_in_chinese_is_not_asked() -> None:
    assert "exchange_items" in negated_writes("外套可能要换吧，再看看")
    assert "exchange_items" not in negated_writes("外套要换大一号")


def test_the_order_named_not_the_account_is_where_the_address_goes() -> None:
    said = "帮我改一下订单上的地址，不是账户的，是订单的：北京市朝阳区建国路88号"
    assert _resolve_overlaps(["modify_order", "update_account"], said, False) == ["modify_order"]


def test_whether_a_return_can_be_made_if_is_asked_of_the_rule() -> None:
    assert "return_items" in negated_writes("can i return the kettle if i end up not liking it?")
    assert "return_items" not in negated_writes("can i return the kettle? it's broken")


def test_one_thing_sent_back_for_another_is_its_exchange() -> None:
    one = "my order came with the wrong size helmet (s). can you send me m and i send back the s?"
    assert item_change(["exchange_items", "return_items"], one) == ["exchange_items"]
    two = "运动鞋帮我退掉，另外那件t恤想换成l码"
    assert item_change(["exchange_items", "return_items"], two) == [
        "exchange_items",
        "return_items",
    ]
