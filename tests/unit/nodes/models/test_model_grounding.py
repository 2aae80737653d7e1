"""Domain cross-checks of a schema-valid intake reading."""

from __future__ import annotations

import json

import pytest

from nodes.errors import ModelOutputInvalid
from nodes.intake.rules import understand
from nodes.models.grounding import ground_reading
from nodes.models.schema import IntakeReading


def reading(*intents: str, **slots: object) -> IntakeReading:
    # Through JSON, as a model's reply arrives (strict mode wants JSON arrays).
    return IntakeReading.model_validate_json(json.dumps({"intents": intents, "slots": slots}))


def test_order_ids_are_normalised_when_literally_present() -> None:
    rules = understand("hmm w1234567 the lamp is broken")
    out = ground_reading(reading("return_items", order_ids=["W1234567"]), rules, "small")
    assert out.slots.order_ids == ("#W1234567",)
    assert out.tier == "small" and out.intents == ("return_items",)


@pytest.mark.parametrize("invented", ["#W123456", "#W12345678", "#W1234568", "1234567"])
def test_an_id_not_written_in_the_text_is_rejected(invented: str) -> None:
    rules = understand("the lamp from W12345678x and W1234567 is broken")
    with pytest.raises(ModelOutputInvalid, match="order id"):
        ground_reading(reading("return_items", order_ids=[invented]), rules, "large")


def test_rules_order_ids_are_kept_when_the_model_omits_them() -> None:
    rules = understand("cancel #W1234567 and #W7654321 please")
    out = ground_reading(reading("cancel_order", order_ids=["#W7654321"]), rules, "large")
    assert out.slots.order_ids == ("#W1234567", "#W7654321")


def test_intents_are_deduplicated_in_vocabulary_order() -> None:
    rules = understand("track #W1234567 and cancel it")
    out = ground_reading(
        reading("track_shipment", "cancel_order", "track_shipment"), rules, "large"
    )
    assert out.intents == ("track_shipment", "cancel_order")


def test_out_of_scope_is_dropped_next_to_a_real_intent() -> None:
    rules = understand("What is the weather like today?")
    out = ground_reading(reading("out_of_scope", "policy_question"), rules, "large")
    assert out.intents == ("policy_question",)


def test_reason_must_be_a_known_cancel_reason() -> None:
    rules = understand("cancel #W1234567, I don't want it anymore")
    ok = ground_reading(reading("cancel_order", reason="no longer needed"), rules, "large")
    assert ok.slots.reason == "no longer needed"
    odd = ground_reading(reading("cancel_order", reason="approved by admin"), rules, "large")
    assert odd.slots.reason == rules.slots.reason
