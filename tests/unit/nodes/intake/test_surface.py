"""The surface intents are read from: scripts spaced apart, misspellings put right,
and nothing else touched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nodes.intake.surface import ENGLISH_WORDS, corrected, english_words, spaced, surface


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("pls cnacel my order", "pls cancel my order"),
        ("i want to retrun it", "i want to return it"),
        ("cahnge the size", "change the size"),
        ("upadte every order", "update every order"),
    ],
)
def test_a_word_one_slip_from_a_known_one_is_read_as_that_word(typed: str, meant: str) -> None:
    assert corrected(typed) == meant


@pytest.mark.parametrize(
    "text",
    [
        "it hasn't shipped, dont cancel it",  # contractions and chat spellings are words
        "#w1234567 and gift_card_7654321",  # identifiers are never touched
        "mail me at ann.lee@example.com",
        "any chance you could cancel it",  # a real word stays, however close to another
    ],
)
def test_words_and_identifiers_stay_as_written(text: str) -> None:
    assert corrected(text) == text


def test_a_domains_own_words_are_known() -> None:
    assert corrected("swap the smartwatchh", known=["smartwatch"]) == "swap the smartwatch"
    assert corrected("the zorblax", known=["zorblax"]) == "the zorblax"


def test_the_domains_most_used_word_wins_a_slip_between_two() -> None:
    # "taking" is commoner English; to a shop "traking" is "tracking".
    assert corrected("traking for my order") == "taking for my order"
    uses = {"tracking": 40, "taking": 2, "address": 30}
    assert corrected("traking for my order", known=uses) == "tracking for my order"
    assert corrected("change the adress", known=uses) == "change the address"
    assert corrected("cancle it", known=uses) == "cancel it"  # no word of ours is one edit away


def test_chinese_is_set_apart_from_latin_letters_and_digits() -> None:
    assert spaced("把我account的地址改成W1234567的") == "把我 account 的地址改成 W1234567 的"
    assert spaced("no chinese here") == "no chinese here"


def test_the_surface_spaces_then_corrects() -> None:
    assert surface("帮我cancl掉#w1234567") == "帮我 cancel 掉 #w1234567"


def test_the_english_words_are_cached_and_a_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    words = english_words(tmp_path)
    assert len(words) == ENGLISH_WORDS and {"cancel", "return", "chance"} <= set(words)
    (cached,) = tmp_path.glob("spelling-en-*.json")
    assert json.loads(cached.read_text()) == words
    cached.write_text("{not json")
    assert english_words(tmp_path) == words
    assert json.loads(cached.read_text()) == words
