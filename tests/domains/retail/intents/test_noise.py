"""The corpus's paraphrase layers: typos spare ids and e-mail addresses, mixing puts English
words into Chinese, and every layer is a function of its seeded generator alone."""

from __future__ import annotations

import random
import re

from domains.retail.intents.noise import mix, paraphrase, trailing, typos, unnamed

SENTENCE = "please cancel order #W1234567 and email confirmation to mia.garcia12@example.com"


def test_typos_misspell_words_but_never_an_id_or_an_email() -> None:
    changed = [typos(SENTENCE, random.Random(seed)) for seed in range(200)]
    assert sum(text != SENTENCE for text in changed) > 50
    for text in changed:
        assert "#W1234567" in text and "mia.garcia12@example.com" in text
        assert len(text.split()) == len(SENTENCE.split())


def test_typos_change_one_letter_per_misspelt_word() -> None:
    for seed in range(100):
        for before, after in zip(
            SENTENCE.split(), typos(SENTENCE, random.Random(seed)).split(), strict=True
        ):
            assert abs(len(before) - len(after)) <= 1
            assert sorted(before) == sorted(after) or len(before) != len(after)


def test_mixing_puts_an_english_word_into_a_chinese_sentence() -> None:
    mixed = {mix("帮我取消一下订单", random.Random(seed)) for seed in range(50)}
    assert mixed <= {"帮我cancel一下订单", "帮我取消一下order", "帮我cancel一下order"}
    assert "帮我cancel一下订单" in mixed


def test_paraphrase_depends_only_on_the_generator_seed() -> None:
    def run(seed: int) -> list[str]:
        rng = random.Random(seed)
        return [
            paraphrase("where is my refund for #W7654321?", "en", False, rng) for _ in range(50)
        ]

    assert run(3) == run(3)
    assert run(3) != run(4)
    assert all(re.search(r"#W7654321|#w7654321", text, re.IGNORECASE) for text in run(3))


def test_an_order_is_named_without_its_id_in_either_language() -> None:
    english = {unnamed("cancel order {order} please", "en", random.Random(s)) for s in range(40)}
    assert english == {
        "cancel my order please",
        "cancel the order please",
        "cancel this order please",
    }
    bare = {unnamed("has {order} shipped?", "en", random.Random(s)) for s in range(40)}
    assert bare == {
        "has it shipped?",
        "has this order shipped?",
        "has my order shipped?",
        "has that one shipped?",
    }
    chinese = {unnamed("订单{order}到哪了", "zh", random.Random(s)) for s in range(40)}
    assert chinese == {"这个订单到哪了", "我的订单到哪了", "那个订单到哪了"}
    # Two orders stay named: which is which is what the request is about.
    assert (
        unnamed("cancel {order} and {order2}", "en", random.Random(0))
        == "cancel {order} and {order2}"
    )


def test_an_id_after_the_request_names_the_order_once() -> None:
    for seed in range(30):
        for template, lang in (("cancel order {order} now", "en"), ("{order}怎么还没到？", "zh")):
            text = trailing(template, lang, random.Random(seed))
            assert text.count("{order}") == 1 and not text.startswith("{order}")
            assert text.rstrip(")").endswith("{order}")
    assert (
        trailing("swap {order} and {order2}", "en", random.Random(0)) == "swap {order} and {order2}"
    )
