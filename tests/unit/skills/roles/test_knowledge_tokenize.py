"""CJK bigram tokenising used on both sides of the knowledge search."""

from __future__ import annotations

from skills.knowledge.tokenize import (
    cjk_bigrams,
    cjk_tsquery,
    cjk_tsvector,
    query_terms,
    strip_cjk,
)


def test_bigrams_overlap_within_runs_only() -> None:
    assert cjk_bigrams("怎么退货") == ["怎么", "么退", "退货"]
    assert cjk_bigrams("退 货，政策") == ["退", "货", "政策"]
    assert cjk_bigrams("return policy") == []


def test_strip_cjk_keeps_latin_text() -> None:
    assert strip_cjk("iPhone 退货 policy").split() == ["iPhone", "policy"]


def test_tsvector_and_tsquery_literals() -> None:
    assert cjk_tsvector((("退货", "A"), ("退货政策", "B"))) == "'政策':4B '货政':3B '退货':1A,2B"
    assert cjk_tsquery("怎么退货") == "'么退' | '怎么' | '退货'"
    assert cjk_tsquery("no chinese here") is None


def test_query_terms_mix_words_and_bigrams() -> None:
    assert query_terms("How do I 退货?") == {"退货"}
    assert query_terms("Return the ITEM") == {"return", "item"}
