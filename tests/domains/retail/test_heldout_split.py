"""The hand-written held-out splits keep to the labelling contract (intents/LABELS.md)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel, ConfigDict

from domains.retail.understanding import INTENTS_SPEC
from nodes.domain import OUT_OF_SCOPE

INTENTS_DIR = Path(__file__).parents[3] / "domains" / "retail" / "intents"
SPLITS = tuple(
    INTENTS_DIR / f"{name}.yaml"
    for name in (
        "heldout",
        "test_split",
        "test_split_2",
        "test_split_3",
        "test_split_4",
        "test_split_5",
        "test_split_6",
    )
)
ORDER_ID = re.compile(r"(?<![A-Za-z0-9])#?[Ww](\d+)")
HAN = re.compile(r"[\u4e00-\u9fff]")
# Intents that a message carries alone: nothing else in the list applies, or the whole request is refused.
ALONE = {OUT_OF_SCOPE} | {spec.name for spec in INTENTS_SPEC if spec.refusal is not None}


class Labelled(BaseModel):
    """One message of the split and the set of intents it asks for."""

    model_config = ConfigDict(extra="forbid")
    text: str
    intents: list[str]
    note: str | None = None


@pytest.fixture(scope="module", params=SPLITS, ids=lambda path: path.stem)
def split(request: pytest.FixtureRequest) -> list[Labelled]:
    """A split, parsed strictly."""
    rows = yaml.safe_load(request.param.read_text(encoding="utf-8"))
    return [Labelled.model_validate(row) for row in rows]


def test_split_is_large_and_bilingual(split: list[Labelled]) -> None:
    chinese = sum(bool(HAN.search(row.text)) for row in split)
    assert len(split) >= 300
    assert 0.35 <= chinese / len(split) <= 0.65


def test_every_label_is_in_the_vocabulary_once(split: list[Labelled]) -> None:
    names = {spec.name for spec in INTENTS_SPEC}
    for row in split:
        assert row.intents, row.text
        assert set(row.intents) <= names, row.text
        assert len(set(row.intents)) == len(row.intents), row.text


def test_stand_alone_labels_are_never_combined(split: list[Labelled]) -> None:
    for row in split:
        if ALONE & set(row.intents):
            assert len(row.intents) == 1, row.text


def test_no_message_repeats(split: list[Labelled]) -> None:
    texts = Counter(row.text.strip().lower() for row in split)
    assert [text for text, n in texts.items() if n > 1] == []


def test_every_intent_is_covered_in_both_languages(split: list[Labelled]) -> None:
    for spec in INTENTS_SPEC:
        rows = [row for row in split if spec.name in row.intents]
        chinese = sum(bool(HAN.search(row.text)) for row in rows)
        assert len(rows) >= 12, spec.name
        assert chinese >= 4 and len(rows) - chinese >= 4, spec.name


def test_order_ids_have_the_shop_shape(split: list[Labelled]) -> None:
    lengths = {len(digits) for row in split for digits in ORDER_ID.findall(row.text)}
    assert lengths <= {7}
