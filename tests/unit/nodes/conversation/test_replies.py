"""How a reply answers the open question: yes, no, a pick, a new request, or unclear."""

from __future__ import annotations

import pytest

from nodes.contracts import Call, Option, Question, Understanding
from nodes.conversation.followup import answer_to
from nodes.conversation.words import YES, ordinal
from nodes.domain import OUT_OF_SCOPE
from tests.deadline import within_seconds

CANCEL = Understanding(
    text="cancel #W1000001",
    masked_text="cancel #W1000001",
    lang="en",
    intents=("cancel_order",),
    slots={"order_ids": ("#W1000001",)},
)
CALL = Call(skill="cancel_v1", args_hash="h1")
CONFIRM = Question(kind="confirm", text="…?", request=CANCEL.text, calls=(CALL,), audit_id="a1")
OPTIONS = (
    Option(value="#W1000001", label="#W1000001 (pending: Keyboard)", words=("pending", "keyboard")),
    Option(value="#W1000002", label="#W1000002 (delivered: Lamp)", words=("delivered", "lamp")),
)
CLARIFY = Question(
    kind="clarify", text="Which?", request="cancel my order", slot="order_ids", options=OPTIONS,
    audit_id="a1",
)  # fmt: skip


def _reading(
    text: str, intents: tuple[str, ...] = (OUT_OF_SCOPE,), **slots: tuple[str, ...]
) -> Understanding:
    lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en"
    return Understanding(text=text, masked_text=text, lang=lang, intents=intents, slots=slots)


@pytest.mark.parametrize(
    "text", ["yes", "Yes please", "ok, go ahead", "yes, I confirm", "是的", "好的，确认", "确认"]
)
def test_an_explicit_yes_confirms_exactly_the_stated_calls(text: str) -> None:
    reply = answer_to(CONFIRM, text, _reading(text), CANCEL)
    assert reply.outcome == "confirmed" and reply.confirmed == (CALL,)
    assert reply.text == CANCEL.text


def test_a_yes_restating_the_same_request_confirms() -> None:
    reading = _reading("yes cancel it", ("cancel_order",))
    assert answer_to(CONFIRM, "yes cancel it", reading, CANCEL).outcome == "confirmed"


def test_a_yes_with_another_order_is_not_a_confirmation() -> None:
    reading = _reading("yes cancel #W1000002", ("cancel_order",), order_ids=("#W1000002",))
    reply = answer_to(CONFIRM, "yes cancel #W1000002", reading, CANCEL)
    assert reply.outcome == "new_request" and reply.confirmed == ()


@pytest.mark.parametrize(
    "text", ["no", "nope", "don't", "actually, don't", "算了", "不要", "not now"]
)
def test_no_changes_nothing_and_settles(text: str) -> None:
    reply = answer_to(CONFIRM, text, _reading(text), CANCEL)
    assert reply.outcome == "declined" and reply.settled and reply.confirmed == ()


@pytest.mark.parametrize("text", ["maybe", "hmm what", "yesterday", "okay so what is a refund"])
def test_anything_else_asks_again_once_then_drops(text: str) -> None:
    reply = answer_to(CONFIRM, text, _reading(text), CANCEL)
    assert reply.outcome == "asked_again" and reply.ask_again is not None
    assert reply.confirmed == ()
    twice = answer_to(reply.ask_again, text, _reading(text), CANCEL)
    assert twice.outcome == "declined" and twice.ask_again is None


def test_a_new_request_withdraws_the_confirmation() -> None:
    reading = _reading("what's your return policy", ("policy_question",))
    reply = answer_to(CONFIRM, reading.text, reading, CANCEL)
    assert reply.outcome == "new_request" and not reply.settled and reply.confirmed == ()
    assert reply.text == reading.text and reply.note


@pytest.mark.parametrize(
    ("text", "picked"),
    [
        ("the second one", "#W1000002"),
        ("2", "#W1000002"),
        ("first", "#W1000001"),
        ("the last one", "#W1000002"),
        ("第二个", "#W1000002"),
        ("the pending one", "#W1000001"),
        ("the one with the lamp", "#W1000002"),
    ],
)
def test_a_clarification_answer_picks_one_option(text: str, picked: str) -> None:
    reply = answer_to(CLARIFY, text, _reading(text), _reading("cancel my order", ("cancel_order",)))
    assert reply.outcome == "picked" and reply.text == f"cancel my order {picked}"


def test_an_id_in_the_answer_is_taken_as_given_and_checked_later() -> None:
    reading = _reading("#W7777777", order_ids=("#W7777777",))
    reply = answer_to(CLARIFY, "#W7777777", reading, _reading("cancel my order", ("cancel_order",)))
    assert reply.text == "cancel my order #W7777777"  # intake's ownership check still applies


def test_no_yes_words_are_read_inside_other_words() -> None:
    assert not YES.match("yesterday") and not YES.match("okay so what")
    assert ordinal("second thoughts about it") == 2  # a position word anywhere is a position
    assert ordinal("where is it") is None


def test_a_question_naming_an_option_is_a_new_request_not_a_pick() -> None:
    reading = _reading(
        "what's the status of #W1000002?", ("order_status",), order_ids=("#W1000002",)
    )
    bare = _reading("what's the status of ?", ("order_status",))
    asked = _reading("cancel my order", ("cancel_order",))
    reply = answer_to(CLARIFY, reading.text, reading, asked, bare)
    assert reply.outcome == "new_request" and reply.text == reading.text
    just_the_id = answer_to(
        CLARIFY,
        "#W1000002",
        _reading("#W1000002", ("order_status",), order_ids=("#W1000002",)),
        asked,
        _reading(" "),
    )
    assert just_the_id.outcome == "picked"


@pytest.mark.parametrize("text", ["不用了", "不用了，谢谢", "算了吧"])
def test_chinese_no_thanks_declines(text: str) -> None:
    assert answer_to(CONFIRM, text, _reading(text), CANCEL).outcome == "declined"


@pytest.mark.parametrize("text", ["先不取消了", "不取消了", "暂时不改了", "还是不退了吧"])
def test_chinese_declines_naming_the_verb_decline(text: str) -> None:
    # Chinese puts the declined verb between 不 and 了: still a no to the stated change.
    assert answer_to(CONFIRM, text, _reading(text), CANCEL).outcome == "declined"


@pytest.mark.parametrize(
    "text", ["yes, but only the keyboard", "ok but refund it to paypal instead"]
)
def test_a_yes_that_changes_the_request_asks_anew(text: str) -> None:
    reply = answer_to(CONFIRM, text, _reading(text), CANCEL)
    assert reply.outcome == "amended" and reply.confirmed == () and not reply.settled
    assert reply.text.startswith(CANCEL.text) and reply.text.endswith(text.split(" ", 1)[1])


def test_a_chinese_yes_that_changes_the_request_asks_anew() -> None:
    reply = answer_to(CONFIRM, "好的，不过只退键盘", _reading("好的，不过只退键盘"), CANCEL)
    assert reply.outcome == "amended" and reply.text == f"{CANCEL.text} 不过只退键盘"


def test_a_yes_then_a_question_is_no_change_of_the_request() -> None:
    text = "ok, but what is a refund"
    assert answer_to(CONFIRM, text, _reading(text), CANCEL).outcome == "asked_again"


@pytest.mark.parametrize(
    "text", ["yes please. also, is #W1000002 shipped?", "确认。另外帮我查一下#W1000002"]
)
def test_a_yes_adding_a_request_confirms_the_stated_calls_and_keeps_both(text: str) -> None:
    reading = _reading(text, ("order_status",), order_ids=("#W1000002",))
    reply = answer_to(CONFIRM, text, reading, CANCEL)
    assert reply.outcome == "confirmed" and reply.confirmed == (CALL,)
    assert reply.text.startswith(CANCEL.text) and "#W1000002" in reply.text


@pytest.mark.parametrize(
    "text",
    [
        "好的好的",
        "ok okay",
        "yes please do it",
        "嗯嗯",
        "好吧",
        "请继续",
        "yes i confirm",
        "yes, go ahead",
    ],
)
def test_a_yes_said_in_several_words_is_a_yes(text: str) -> None:
    assert YES.match(text)


def test_a_long_run_of_yes_words_is_read_in_linear_time() -> None:
    # Words that split two ways ("嗯嗯" = 嗯 + 嗯) once made "嗯" * 32 + "x" take a second,
    # doubling with every few more: a customer could stall a worker with one message.
    with within_seconds(5, "YES"):
        assert not YES.match("嗯" * 60 + "x")
        assert not YES.match("好吧" * 40 + "x")
        assert not YES.match("ok" + " confirm" * 40 + "?")
