"""Clauses and speech acts: requests, questions and conditions in both languages."""

from __future__ import annotations

import pytest

from nodes.intake.clauses import act_of, clauses
from tests.deadline import within_seconds


def _read(text: str) -> list[tuple[str, str]]:
    return [(c.text, c.act) for c in clauses(text)]


@pytest.mark.parametrize(
    "text",
    [
        "was my order #W1234567 cancelled?",
        "has the return gone through",
        "Is it shipped yet?",
        "退了吗",
        "取消成功了没有",
        "did you change the address?",
        "退货的流程是怎样的",
        "换货一般要多久",
        # an id after the question's last word leaves it a question
        "取消了没 #W7654321",
        "was it returned? order W7654321",
        "退货以后多久能到账",
        # whether a thing can still be done, of nothing the customer names as theirs
        "已经签收的订单还能退吗",
        # how it is done in general
        "how do I return something?",
        "退货一般怎么退？",
    ],
)
def test_a_question_about_state_is_a_question(text: str) -> None:
    assert act_of(text) == "question"


@pytest.mark.parametrize(
    "text",
    [
        "Can you cancel it?",
        "could u return the kettle pls",
        "I'd like to exchange it",
        "能不能帮我退掉",
        "麻烦取消一下吗",
        "cancel it",
        "取消 W7654321",
        "我的订单还能取消吗",
        "W7654321还能改地址吗",
        # how to do it, to a thing of one's own; whether a change can be done, in two words
        "how do i send back the luggage set",
        "How do I return order #W6519525?",
        "你好，这个台灯我不想要了，怎么退？",
        "swap possible?",
    ],
)
def test_asking_for_something_to_be_done_is_a_command(text: str) -> None:
    assert act_of(text) == "command"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "if it hasn't shipped yet, cancel it",
            [("if it hasn't shipped yet", "conditional"), ("cancel it", "command")],
        ),
        (
            "cancel #W1234567 if it hasn't shipped",
            [("if it hasn't shipped", "conditional"), ("cancel #W1234567", "command")],
        ),
        ("要是还没发货就帮我取消", [("要是还没发货", "conditional"), ("就帮我取消", "command")]),
        (
            "订单W1234567如果还没发货的话就取消吧",
            [("如果还没发货的话", "conditional"), ("订单W1234567 就取消吧", "command")],
        ),
    ],
)
def test_a_condition_is_split_from_the_request_it_gates(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "如果还在仓库就取消，已经发了的话告诉我啥时候到",
            [
                ("如果还在仓库", "conditional"),
                ("就取消", "command"),
                ("已经发了的话告诉我啥时候到", "command"),
            ],
        ),
        (
            "if it hasn't shipped, cancel it, if it has, tell me when it arrives",
            [
                ("if it hasn't shipped", "conditional"),
                ("cancel it", "command"),
                ("if it has", "conditional"),
                ("tell me when it arrives", "command"),
            ],
        ),
        (
            "cancel #W1234567, but only if it hasn't shipped",
            [("cancel #W1234567", "command"), ("only if it hasn't shipped", "conditional")],
        ),
    ],
)
def test_each_of_several_conditions_gates_its_own_request(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("Cancel #W1234567 and also track #W7654321", ["Cancel #W1234567", "track #W7654321"]),
        (
            "查下订单W1234567顺便看看物流到哪了再发个邮件告诉我",
            ["查下订单W1234567", "顺便看看物流到哪了", "再发个邮件告诉我"],
        ),
        ("Has it shipped? If not, cancel it", ["Has it shipped?", "If not", "cancel it"]),
        ("hi! where is my refund?", ["hi!", "where is my refund?"]),
        ("list my orders and which of them shipped", ["list my orders", "which of them shipped"]),
        # before a dash, the topic the rest asks about
        ("the exchange for #W1234567 - done yet?", ["the exchange for #W1234567 - done yet?"]),
        ("don't cancel it - swap the payment", ["don't cancel it", "swap the payment"]),
        # a Chinese taking back between spaces opens a clause; what is wrong does not
        ("退了吧 算了", ["退了吧", "算了"]),
        ("改成白色的吧 不对 还是黑色", ["改成白色的吧", "不对 还是黑色"]),
        ("帮我换一下 size 不对", ["帮我换一下 size 不对"]),
    ],
)
def test_several_requests_are_read_one_by_one(text: str, parts: list[str]) -> None:
    assert [c.text for c in clauses(text)] == parts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Has it shipped, and if so what's the tracking number?",
            [
                ("Has it shipped", "question"),
                ("if so", "conditional"),
                ("what's the tracking number?", "question"),
            ],
        ),
        ("if not cancel it", [("if not", "conditional"), ("cancel it", "command")]),
        # Not a condition that points back: what follows it is still the condition.
        ("if not shipped yet cancel it", [("if not shipped yet cancel it", "command")]),
    ],
)
def test_a_condition_pointing_back_ends_where_its_request_starts(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(
    ("text", "act"),
    [
        # "will I …" asks what will happen; "will you …" asks for it
        ("will I get an email when my order ships?", "question"),
        ("will you cancel it", "command"),
        ("will I be able to return #W1234567?", "command"),
        # 请 inside 申请, and 请问, ask nothing to be done
        ("骑行头盔换小一号的换货申请通过了吗", "question"),
        ("请问退款到了吗", "question"),
        ("请帮我取消", "command"),
    ],
)
def test_what_asks_for_a_thing_to_be_done_and_what_only_looks_like_it(text: str, act: str) -> None:
    assert act_of(text) == act


def test_one_request_is_one_clause() -> None:
    assert _read("I ordered it by mistake, please cancel it") == [
        ("I ordered it by mistake, please cancel it", "command")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "if it's still pending cancel it",
        "if it shipped just give me the tracking number",
    ],
)
def test_a_condition_with_no_comma_keeps_the_request_inside_it(text: str) -> None:
    # No boundary ends the condition, so it is read whole, as the request it holds.
    assert _read(text) == [(text, "command")]


def test_a_request_is_read_with_the_condition_gating_it() -> None:
    condition, request = clauses("if my refund is done, tell me when it reaches my card")
    assert (condition.act, condition.reading) == ("conditional", "if my refund is done")
    assert request.text == "tell me when it reaches my card"
    assert request.reading == "if my refund is done, tell me when it reaches my card"


def test_a_list_of_commands_is_one_clause_each() -> None:
    assert [c.text for c in clauses("Check order #W1, track the shipment and email me")] == [
        "Check order #W1",
        "track the shipment",
        "email me",
    ]
    # A comma inside one request (an address) splits nothing.
    assert len(clauses("change the address to 1 Oak St, Austin, TX 78701")) == 1


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("退款退到哪张卡了", "question"),
        ("那个咖啡机退了多少钱", "question"),
        ("什么时候能到", "question"),
        ("能帮我把W1234567改寄到上海市浦东新区世纪大道100号吗", "command"),
        ("can the Desk Lamp in W1234567 be swapped for a bigger one?", "command"),
        ("告诉我啥时候到", "command"),
    ],
)
def test_chinese_question_words_and_long_polite_requests(text: str, act: str) -> None:
    assert act_of(text) == act


def test_ids_followed_by_a_word_are_read_in_linear_time() -> None:
    # Nested repeats once tried every split of the ids: five ids and "啊" took minutes.
    text = "这些订单一起退:" + " ".join(f"#w{1000000 + i}" for i in range(40)) + " 啊"
    with within_seconds(5, "clauses()"):
        parts = clauses(text)
    assert [c.act for c in parts] == ["command"]
    assert act_of("退了吗 w8120937 w8120938") == "question"


def test_a_chinese_question_without_its_mark_ends_at_its_particle() -> None:
    assert _read("那个台灯发货了吗 if not 就 cancel 掉")[0] == ("那个台灯发货了吗", "question")
    assert _read("我的订单呢 付了钱就没下文了")[0] == ("我的订单呢", "question")
    assert _read("你们什么时候 发货") == [
        ("你们什么时候 发货", "question")
    ]  # 么 of 什么 ends nothing


def test_a_chinese_condition_ends_where_a_request_begins() -> None:
    assert _read("如果还没发货能不能取消呀") == [
        ("如果还没发货", "conditional"),
        ("能不能取消呀", "command"),
    ]
    assert _read("如果可以的话帮我取消")[0] == ("如果可以的话", "conditional")


def test_a_refund_ending_a_return_is_part_of_it() -> None:
    assert len(clauses("Requesting a return and refund.")) == 1
    assert [c.text for c in clauses("cancel it and refund me the shipping")] == [
        "cancel it",
        "refund me the shipping",
    ]


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("ship了以后email我一下 ok?", "command"),
        ("cancel it, okay?", "command"),
        ("帮我取消好吗？", "command"),
        ("is it ok?", "question"),
        ("it shipped, right?", "question"),
    ],
)
def test_a_request_with_a_tag_asking_to_agree_is_still_a_request(text: str, act: str) -> None:
    assert act_of(text) == act


def test_a_verb_before_an_id_is_a_request_of_its_own() -> None:
    assert _read("取消W8629904，然后把W8629917的地址改一下") == [
        ("取消W8629904", "command"),
        ("然后把W8629917的地址改一下", "command"),
    ]
    assert len(clauses("帮我退货。订单W8629904")) == 1  # a noun naming the id joins it


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("also exchange the one I got in W6073381 for the pink version?", "command"),
        ("return the lamp I got last week?", "command"),
        ("return policy?", "question"),
        ("refund?", "question"),
        ("cancel it?", "question"),
    ],
)
def test_a_clause_opening_with_an_order_is_one_whatever_its_mark(text: str, act: str) -> None:
    assert act_of(text) == act
