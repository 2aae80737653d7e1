"""Grounding a model's intake reading against retail's vocabulary and rules reading."""

from __future__ import annotations

import json

import pytest

from domains.retail.pack import DOMAIN
from domains.retail.planning.templates import rules_plan
from domains.retail.understanding import understand
from nodes.bootstrap import load_static_config
from nodes.contracts import Tier, Understanding
from nodes.errors import ModelOutputInvalid
from nodes.models import grounding
from nodes.models.schema import IntakeReading, reading_schema

VOCABULARY = DOMAIN.understanding
INTENTS = DOMAIN.intent_names
WRITE_INTENTS = {i.name for i in VOCABULARY.intents if i.writes}


def reading(*intents: str, **slots: object) -> IntakeReading:
    # Through JSON, as a model's reply arrives (strict mode wants JSON arrays).
    schema = reading_schema(VOCABULARY.slots)
    return schema.model_validate_json(json.dumps({"intents": intents, "slots": slots}))


def ground_reading(reading: IntakeReading, rules: Understanding, tier: Tier) -> Understanding:
    return grounding.ground_reading(reading, rules, tier, VOCABULARY)


def test_order_ids_are_normalised_when_literally_present() -> None:
    rules = understand("hmm w1234567 the lamp is broken")
    out = ground_reading(reading("order_status", order_ids=["W1234567"]), rules, "small")
    assert out.slot("order_ids") == ("#W1234567",)
    assert out.tier == "small" and out.intents == ("order_status",)


@pytest.mark.parametrize("invented", ["#W123456", "#W12345678", "#W1234568", "1234567"])
def test_an_id_not_written_in_the_text_is_rejected(invented: str) -> None:
    rules = understand("the lamp from W12345678x and W1234567 is broken")
    with pytest.raises(ModelOutputInvalid, match="order_ids"):
        ground_reading(reading("order_status", order_ids=[invented]), rules, "large")


def test_rules_order_ids_are_kept_when_the_model_omits_them() -> None:
    rules = understand("cancel #W1234567 and #W7654321 please")
    out = ground_reading(reading("cancel_order", order_ids=["#W7654321"]), rules, "large")
    assert out.slot("order_ids") == ("#W1234567", "#W7654321")


def test_intents_are_deduplicated_in_vocabulary_order() -> None:
    rules = understand("track #W1234567 and cancel it")
    out = ground_reading(
        reading("track_shipment", "cancel_order", "track_shipment"), rules, "large"
    )
    assert out.intents == ("track_shipment", "cancel_order")


def test_out_of_scope_is_dropped_next_to_a_real_intent() -> None:
    rules = understand("What is the weather like today?")
    # Nothing the rules weighed nor any record named: the model's read is not taken.
    out = ground_reading(reading("out_of_scope", "policy_question"), rules, "large")
    assert out.intents == ("out_of_scope",)
    weighed = rules.model_copy(update={"plausible": ("policy_question",)})
    out = ground_reading(reading("out_of_scope", "policy_question"), weighed, "large")
    assert out.intents == ("policy_question",)


def test_reason_must_be_a_known_cancel_reason() -> None:
    rules = understand("cancel #W1234567, it was a mistake")
    assert rules.first("reason") is None
    ok = ground_reading(reading("cancel_order", reason="ordered by mistake"), rules, "large")
    assert ok.first("reason") == "ordered by mistake"
    odd = ground_reading(reading("cancel_order", reason="approved by admin"), rules, "large")
    assert odd.first("reason") is None


def test_the_rules_reason_of_a_write_is_never_replaced() -> None:
    rules = understand("cancel #W1234567, I don't want it anymore")
    out = ground_reading(reading("cancel_order", reason="ordered by mistake"), rules, "large")
    assert out.first("reason") == rules.first("reason") == "no longer needed"


# Every kind of write the vocabulary knows, as a customer asks for it.
WRITES = {
    "cancel_order": "Please cancel order #W8770097",
    "modify_order": "Change the address of order #W1234567 to 12 Main St, Springfield, IL 62704",
    "return_items": "I want to return order #W1234567",
    "exchange_items": "I want to exchange the Desk Lamp in #W1234567 for another colour",
    "update_account": "Update my account address to 12 Main St, Springfield, IL 62704",
    "notify": "Where is order #W1234567? email me at ann@example.com",
}


def test_write_intents_are_the_vocabulary_intents_that_plan_a_change() -> None:
    # The cross-check is only as good as this list: every intent whose rules
    # plan holds a side-effect step (with its slots given) must be on it.
    registry, _ = load_static_config()
    for intent in INTENTS:
        text = WRITES.get(intent, "about #W1234567")
        u = understand(text).model_copy(update={"intents": (intent,)})
        plan = rules_plan(u, "ann_lee_1234")
        writes = [t for t in plan.tasks if registry.get(t.skill).metadata.side_effect]
        if writes:
            assert intent in WRITE_INTENTS, (intent, [t.skill for t in writes])
    for intent, text in WRITES.items():
        assert intent in understand(text).intents, (intent, understand(text).intents)


@pytest.mark.parametrize("intent", sorted(WRITE_INTENTS))
def test_a_model_can_not_drop_a_write_the_rules_read(intent: str) -> None:
    rules = understand(WRITES[intent])
    reads = [i for i in rules.intents if i not in WRITE_INTENTS] or ["order_status"]
    with pytest.raises(ModelOutputInvalid, match="drops write intent"):
        ground_reading(reading(*reads, order_ids=list(rules.slot("order_ids"))), rules, "large")


@pytest.mark.parametrize("intent", sorted(WRITE_INTENTS))
def test_a_model_can_not_add_a_write_the_rules_did_not_read(intent: str) -> None:
    rules = understand("Where is my order #W5918442?")
    assert rules.intents == ("order_status", "track_shipment")
    with pytest.raises(ModelOutputInvalid, match="did not read"):
        ground_reading(reading("order_status", intent, order_ids=["#W5918442"]), rules, "large")


def test_the_two_reported_readings_are_rejected() -> None:
    cancel = understand("Please cancel order #W8770097")
    with pytest.raises(ModelOutputInvalid, match=r"drops write intent\(s\).*cancel_order"):
        ground_reading(reading("order_status", order_ids=["#W8770097"]), cancel, "large")
    where = understand("Where is my order #W5918442?")
    hostile = reading("order_status", "cancel_order", "notify", order_ids=["#W5918442"])
    with pytest.raises(ModelOutputInvalid, match="cancel_order"):
        ground_reading(hostile, where, "large")


def test_reads_may_differ_when_the_writes_agree_and_the_rules_weighed_them() -> None:
    rules = understand("Please cancel order #W8770097")
    model = reading("cancel_order", "track_shipment", order_ids=["#W8770097"])
    out = ground_reading(model, rules, "small")
    assert out.intents == ("cancel_order",) and out.tier == "small"  # not weighed: not taken
    weighed = rules.model_copy(update={"plausible": ("track_shipment",)})
    out = ground_reading(model, weighed, "small")
    assert out.intents == ("track_shipment", "cancel_order") and out.tier == "small"
    assert out.slot("order_ids") == ("#W8770097",)


def test_a_recipient_must_be_exactly_one_the_rules_read() -> None:
    rules = understand(WRITES["notify"])
    with pytest.raises(ModelOutputInvalid, match="emails"):
        # A substring of the customer's address is another mailbox.
        ground_reading(reading("order_status", "notify", emails=["nn@example.com"]), rules, "large")
    out = ground_reading(reading("order_status", "notify"), rules, "large")
    assert out.slot("emails") == ("ann@example.com",)


def test_the_rules_address_of_a_write_wins_and_a_model_may_only_fill_a_gap() -> None:
    text = (
        "Change the address of order #W1234567 from 1 Old Rd, Salem, OR 97301"
        " to 12 Main St, Springfield, IL 62704"
    )
    rules = understand(text)
    assert rules.first("address") == "12 Main St, Springfield, IL 62704"
    other = reading("modify_order", address="1 Old Rd, Salem, OR 97301")
    assert ground_reading(other, rules, "large").first("address") == rules.first("address")
    gap = understand("Please modify order #W1234567, new address 12 Main St, Springfield, IL 62704")
    assert gap.intents == ("modify_order",) and gap.first("address") is None
    filled = reading("modify_order", address="12 Main St, Springfield, IL 62704")
    assert (
        ground_reading(filled, gap, "large").first("address") == "12 Main St, Springfield, IL 62704"
    )
