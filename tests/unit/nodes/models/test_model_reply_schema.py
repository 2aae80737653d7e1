"""Parsing a model's raw reply: one JSON object, strictly typed."""

from __future__ import annotations

import pytest

from nodes.domain import SlotSpec
from nodes.errors import ModelOutputInvalid
from nodes.models.schema import parse_reply, reading_schema

# A vocabulary of the test's own: the schema is built from any domain's slots.
SLOTS = (
    SlotSpec("booking_ids", "booking ids", kind="identifier", pattern=r"B\d{4}", many=True,
             max_values=2),
    SlotSpec("note", "a note", max_chars=10),
)  # fmt: skip
IntakeReading = reading_schema(SLOTS)


def test_fenced_json_with_prose_around_it_is_accepted() -> None:
    reply = 'Sure!\n```json\n{"intents": ["cancel"], "slots": {"booking_ids": ["B1234"]}}\n```'
    reading = parse_reply("intake", reply, IntakeReading)
    assert reading.intents == ("cancel",)
    assert reading.slots.values() == {"booking_ids": ("B1234",), "note": ()}


def test_unknown_keys_are_ignored() -> None:
    reading = parse_reply("intake", '{"intents": ["notify"], "confidence": 0.9}', IntakeReading)
    assert reading.intents == ("notify",)


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("I think the customer wants to cancel.", "no JSON object"),
        ('{"intents": ["cancel"],}', "invalid JSON"),
        ('{"intents": "cancel"}', "schema: intents"),
        ('{"intents": [42]}', "schema: intents"),
        ('{"intents": []}', "schema: intents"),
        ('{"slots": {}}', "schema: intents"),
        ('{"intents": ["notify"], "slots": {"booking_ids": "B1234"}}', "schema: slots"),
        ('{"intents": ["notify"], "slots": {"booking_ids": ["B1", "B2", "B3"]}}', "schema: slots"),
        ('{"intents": ["notify"], "slots": {"note": ["a"]}}', "schema: slots"),
        ('{"intents": ["notify"], "slots": {"note": "longer than ten"}}', "schema: slots"),
        ('{"intents": ["notify"], "injection": "no"}', "schema: injection"),
        ('{"intents": ["notify"]} {"intents": ["refund"]}', "invalid JSON"),
    ],
)
def test_broken_or_schema_violating_replies_are_rejected(reply: str, problem: str) -> None:
    with pytest.raises(ModelOutputInvalid, match=problem):
        parse_reply("intake", reply, IntakeReading)


def test_oversized_reply_is_rejected() -> None:
    with pytest.raises(ModelOutputInvalid, match="too long"):
        parse_reply("intake", '{"intents": ["notify"]}' + " " * 30_000, IntakeReading)
