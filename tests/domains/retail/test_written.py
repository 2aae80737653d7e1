"""The written training messages keep to the labelling contract, stay out of both
held-out splits, and enter the corpus as templates of their own."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from domains.retail.intents.corpus import training_corpus
from domains.retail.intents.slots import fill
from domains.retail.intents.written import FOLDER, KIND, template, written
from domains.retail.understanding import INTENTS_SPEC
from tests.domains.retail.test_heldout_split import ALONE, SPLITS, Labelled

FILES = sorted(FOLDER.glob("*.yaml"))


def _rows(path: Path) -> list[Labelled]:
    return [Labelled.model_validate(r) for r in yaml.safe_load(path.read_text(encoding="utf-8"))]


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_message_is_labelled_by_the_contract(path: Path) -> None:
    names = {spec.name for spec in INTENTS_SPEC}
    rows = _rows(path)
    assert len(rows) >= 300
    for row in rows:
        assert row.intents and set(row.intents) <= names, row.text
        assert len(row.intents) == 1 or not ALONE & set(row.intents), row.text


def test_no_written_message_is_one_of_the_held_out_splits_or_repeats() -> None:
    held = {_norm(r.text) for split in SPLITS for r in _rows(split)}
    texts = [_norm(r.text) for path in FILES for r in _rows(path)]
    assert len(set(texts)) == len(texts)
    # Counted, never listed: the blind split's messages are not to be read.
    assert sum(t in held for t in texts) == 0


def test_order_ids_become_slots_and_braces_stay_text() -> None:
    assert template("cancel #W1234567 and w7654321, not W1111111 {x}") == (
        "cancel {order} and {order2}, not W1111111 {{x}}"
    )
    filled = fill(template("move W1234567 {now}"), "en", random.Random(1))
    assert filled.endswith("{now}") and "W1234567" not in filled.upper().replace("#", "")


def test_written_messages_are_taught_in_both_languages() -> None:
    groups = written()
    assert len(groups["en"]) > 500 and len(groups["zh"]) > 500
    taught = [e for e in training_corpus() if e.kind == KIND]
    # Each once as written (ids drawn afresh) and paraphrased: more examples than messages.
    assert len(taught) > len(groups["en"]) + len(groups["zh"])
