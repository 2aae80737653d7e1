"""Parsing a model's raw reply: one JSON object, strictly typed."""

from __future__ import annotations

import pytest

from nodes.errors import ModelOutputInvalid
from nodes.models.schema import IntakeReading, parse_reply


def test_fenced_json_with_prose_around_it_is_accepted() -> None:
    reply = (
        'Sure!\n```json\n{"intents": ["cancel_order"], "slots": {"order_ids": ["#W1234567"]}}\n```'
    )
    reading = parse_reply("intake", reply, IntakeReading)
    assert reading.intents == ("cancel_order",)
    assert reading.slots.order_ids == ("#W1234567",)


def test_unknown_keys_are_ignored() -> None:
    reading = parse_reply("intake", '{"intents": ["notify"], "confidence": 0.9}', IntakeReading)
    assert reading.intents == ("notify",)


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("I think the customer wants to cancel.", "no JSON object"),
        ('{"intents": ["cancel_order"],}', "invalid JSON"),
        ('{"intents": "cancel_order"}', "schema: intents"),
        ('{"intents": [42]}', "schema: intents"),
        ('{"intents": []}', "schema: intents"),
        ('{"slots": {}}', "schema: intents"),
        ('{"intents": ["notify"], "slots": {"order_ids": "#W1234567"}}', "schema: slots"),
        ('{"intents": ["notify"], "injection": "no"}', "schema: injection"),
        ('{"intents": ["notify"]} {"intents": ["bulk_modify"]}', "invalid JSON"),
    ],
)
def test_broken_or_schema_violating_replies_are_rejected(reply: str, problem: str) -> None:
    with pytest.raises(ModelOutputInvalid, match=problem):
        parse_reply("intake", reply, IntakeReading)


def test_oversized_reply_is_rejected() -> None:
    with pytest.raises(ModelOutputInvalid, match="too long"):
        parse_reply("intake", '{"intents": ["notify"]}' + " " * 30_000, IntakeReading)
