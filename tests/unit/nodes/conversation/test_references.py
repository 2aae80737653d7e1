"""Which of the customer's records a reference points at, or which it could."""

from __future__ import annotations

import pytest

from nodes.contracts import FocusEntity, Option
from nodes.conversation.references import _pick, described, pointed_at
from nodes.conversation.small_talk import small_talk_reply

A, B, C = "#W1000001", "#W1000002", "#W1000003"
OPTIONS = (
    Option(value=A, label=A, words=("pending", "keyboard")),
    Option(value=B, label=B, words=("delivered", "lamp")),
    Option(value=C, label=C, words=("pending", "desk", "lamp")),
)


def _focus(*groups: tuple[str, ...]) -> list[FocusEntity]:
    """Focus entities, newest turn first."""
    turn = len(groups)
    out = []
    for group in groups:
        out += [FocusEntity(slot="order_ids", value=v, turn=turn) for v in group]
        turn -= 1
    return out


@pytest.mark.parametrize(
    ("text", "focus", "picked"),
    [
        ("cancel it", _focus((B,), (A,)), B),
        ("这个订单", _focus((B,), (A,)), B),
        ("the other one", _focus((B,), (A,)), A),
        ("the keyboard one", _focus((B,)), A),
        ("the second one", _focus((A, B, C)), B),
        ("the last one", _focus((A, B, C)), C),
    ],
)
def test_a_reference_picks_one_record(text: str, focus: list[FocusEntity], picked: str) -> None:
    assert _pick(text, focus, OPTIONS) == (picked, [])


def test_a_reference_several_records_fit_offers_them() -> None:
    picked, offered = _pick("cancel it", _focus((A, C)), OPTIONS)
    assert picked is None and [o.value for o in offered] == [A, C]
    picked, offered = _pick("the lamp", _focus(), OPTIONS)
    assert picked is None and [o.value for o in offered] == [B, C]


def test_nothing_to_point_at_picks_nothing() -> None:
    assert _pick("cancel my order", _focus(), OPTIONS) == (None, [])
    assert _pick("cancel it", _focus(), OPTIONS) == (None, [])
    assert pointed_at("where is it?", _focus()) is None
    assert pointed_at("where is it?", _focus((B,))) == B


def test_words_match_whole_words_only() -> None:
    assert described("the lampshade", OPTIONS) == []
    assert [o.value for o in described("the pending desk", OPTIONS)] == [A, C]


@pytest.mark.parametrize(
    ("text", "lang", "reply"),
    [
        ("hi there", "en", "Hello!"),
        ("你好", "zh", "您好"),
        ("thanks a lot!", "en", "welcome"),
        ("谢谢", "zh", "不客气"),
        ("bye", "en", "Goodbye"),
    ],
)
def test_small_talk_is_answered(text: str, lang: str, reply: str) -> None:
    answer = small_talk_reply(text, lang)  # type: ignore[arg-type]
    assert answer is not None and reply in answer


def test_small_talk_with_a_request_is_no_small_talk() -> None:
    assert small_talk_reply("hi, cancel my order", "en") is None
    assert small_talk_reply("thanks, and where is my parcel?", "en") is None


@pytest.mark.parametrize("text", ["把这一单取消", "那一笔退了吧", "这一个还没到"])
def test_chinese_this_one_with_a_measure_word_is_a_reference(text: str) -> None:
    assert _pick(text, _focus((B,), (A,)), OPTIONS) == (B, [])


def test_a_position_counts_in_the_last_list_shown_even_after_one_was_named_again() -> None:
    # Turn 1 listed A, B, C; turn 2 was about B alone (B stays in turn 1's list too).
    focus = _focus((B,), (A, B, C))
    assert _pick("ok, cancel the last one instead", focus, OPTIONS) == (C, [])
    assert _pick("what about the second order", focus, OPTIONS) == (B, [])
    assert _pick("第一个呢", focus, OPTIONS) == (A, [])
    # A bare "last" counts nothing: no earlier list is reached for.
    assert _pick("cancel what I bought last week", focus, OPTIONS)[0] != C
