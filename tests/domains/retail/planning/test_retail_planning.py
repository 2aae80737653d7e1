"""Retail plan templates, `bind:` resolvers, preconditions and replacements."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from domains.retail import DOMAIN
from domains.retail.planning.binding import parse_address
from domains.retail.understanding import understand
from nodes.bootstrap import load_static_config
from nodes.errors import BindingError, PreconditionFailed, UnusableValue
from nodes.models.prompts import load_prompts
from nodes.planner.binding import bind_args
from nodes.planner.model_checks import check_inputs
from nodes.planner.model_plan import planner_messages
from tests.deadline import within_seconds

USER = "ann_lee_1234"
PLANNING = DOMAIN.planning
ORDER = {"order_id": "#W1234567", "status": "delivered", "items": [{"item_id": "111"}],
         "payment_history": [{"payment_method_id": "credit_card_1"}]}  # fmt: skip
ACCOUNT = {"user_id": USER, "email": "ann@example.com",
           "payment_methods": {"credit_card_1": {"source": "credit_card"},
                               "gift_card_9": {"source": "gift_card"}}}  # fmt: skip


def test_every_rules_template_plan_passes_the_input_checks() -> None:
    # The checks must never reject what the rules tier itself would run.
    registry, _ = load_static_config()
    texts = ["Please cancel order #W1234567, I ordered by mistake",
             "Where is my package #W1234567? Please track it and email me at ann@example.com",
             "My order #W1234567 is late, why?", "I want to return #W1234567",
             "Change the address of order #W1234567 to 12 Main St, Springfield, IL 62704",
             "Pay order #W1234567 with gift card", "What is your return policy?",
             "What products do you sell?", "Where are my orders?"]  # fmt: skip
    for text in texts:
        for task in PLANNING.plan(understand(text), USER).tasks:
            check_inputs(task, registry.get(task.skill), PLANNING)


def test_a_cancellation_plans_a_lookup_then_the_write_with_the_stated_reason() -> None:
    plan = PLANNING.plan(understand("Please cancel order #W1234567, I ordered by mistake"), USER)
    lookup, cancel = plan.tasks
    assert (lookup.skill, lookup.args) == ("get_order_details_v1", {"order_id": "#W1234567"})
    assert cancel.skill == "cancel_pending_order_v1" and cancel.depends_on == (lookup.id,)
    assert cancel.args == {"order_id": "#W1234567", "reason": "ordered by mistake"}


def test_a_return_is_filled_from_the_order_read_before_it() -> None:
    (_, ret) = PLANNING.plan(understand("I want to return #W1234567"), USER).tasks
    bound = bind_args(PLANNING, ret.skill, ret.args, {"t1": ORDER})
    assert bound == {"order_id": "#W1234567", "item_ids": ["111"],
                     "payment_method_id": "credit_card_1"}  # fmt: skip


def test_a_payment_kind_resolves_to_the_customers_own_method_or_says_none_is_on_file() -> None:
    assert PLANNING.bind("user_payment:gift_card", {"t2": ACCOUNT}) == "gift_card_9"
    # The customer's records say no (a declined step), not the system failing.
    with pytest.raises(UnusableValue, match="no paypal on file"):
        PLANNING.bind("user_payment:paypal", {"t2": ACCOUNT})
    with pytest.raises(BindingError, match="returned nothing usable") as empty:
        PLANNING.bind("user_payment:paypal", {})
    assert not isinstance(empty.value, UnusableValue)
    assert PLANNING.is_marker("user_payment:gift_card") and PLANNING.is_marker("summary")
    assert not PLANNING.is_marker("account_email")


def test_a_free_text_address_is_split_into_the_skills_fields() -> None:
    args = PLANNING.prepare_args(
        "modify_user_address_v1", {"address": "12 Oak St, Apt 4, Austin, tx 78701"}
    )
    assert args == {"address1": "12 Oak St", "address2": "Apt 4", "city": "Austin",
                    "state": "TX", "country": "USA", "zip": "78701"}  # fmt: skip
    with pytest.raises(UnusableValue, match="street, \\[unit,\\] city, ST 12345"):
        parse_address("somewhere nice")
    assert parse_address(" 1 Main ,Austin,TX 78701 , united states ")["country"] == "united states"
    # A field of nothing but whitespace is no field.
    for unusable in ("x,\t,TX 78701", " , Austin, TX 78701", "1 Main, Austin, TX 7870"):
        with pytest.raises(UnusableValue):
            parse_address(unusable)


def test_an_address_argument_of_commas_and_spaces_is_refused_in_linear_time() -> None:
    # One pattern with lazy parts between optional whitespace took 3 s on 84 characters.
    spaces = " " * 400
    with within_seconds(5, "parse_address"):
        for hostile in (f"{spaces},{spaces},{spaces},{spaces}x", "a" + ", " * 2000 + "x"):
            with pytest.raises(UnusableValue):
                parse_address(hostile)


def test_a_write_on_an_order_in_the_wrong_state_fails_before_anyone_is_asked() -> None:
    args = {"order_id": "#W1234567", "reason": "no longer needed"}
    with pytest.raises(
        PreconditionFailed, match="is delivered; this is only possible while it is pending"
    ):
        PLANNING.check_preconditions("cancel_pending_order_v1", args, {"t1": ORDER})
    PLANNING.check_preconditions("return_delivered_order_items_v1", args, {"t1": ORDER})
    assert (
        PLANNING.precondition_text("cancel_pending_order_v1", "en") == "while the order is pending"
    )
    assert PLANNING.precondition_text("get_order_details_v1", "en") is None


def test_the_approval_evidence_summarizes_order_and_shipment_reads() -> None:
    shipments = {"order_id": "#W1234567", "shipments": [
        {"tracking_id": "TRK1", "events": [{"description": "In transit", "location": "Austin"}]}]}  # fmt: skip
    lines = PLANNING.summarize({"t1": {**ORDER, "status": "pending"}, "t2": shipments})
    assert lines.splitlines() == ["Order #W1234567: pending", "Shipment TRK1: In transit (Austin)"]


def test_tracking_reads_are_replaced_by_the_order_record() -> None:
    registry, roles = load_static_config()
    for skill in ("track_shipment_v1", "calculate_eta_v1", "detect_delay_pattern_v1"):
        replacement = registry.get(skill).metadata.replan_with
        assert replacement is not None, skill
        assert (replacement.skill, replacement.role, replacement.args) == (
            "get_order_details_v1", "order_query", ("order_id",))  # fmt: skip
        assert replacement.skill in roles[replacement.role].execute


def test_bulk_order_ids_are_a_retail_bulk_argument() -> None:
    assert "order_ids" in PLANNING.bulk_args


def test_the_model_planner_is_told_it_plans_for_a_retail_desk() -> None:
    registry, roles = load_static_config()
    ctx: Any = SimpleNamespace(domain=DOMAIN, registry=registry, roles=roles)
    understanding = understand("Where is my order #W1234567?")
    rules = PLANNING.plan(understanding, USER)
    system, _ = planner_messages(load_prompts(), ctx, understanding, rules, USER)
    text = str(system.content)
    assert text.startswith("You plan the steps a retail support desk runs")
    assert "Use a skill only under a role that lists it." in text  # the harness rules follow


def test_an_exchange_looks_its_policy_up_in_the_customers_language() -> None:
    for text, query in (
        ("I want to exchange #W1234567 for another size", "exchange delivered items policy"),
        ("我想把#W1234567换成别的颜色", "换货政策 换货"),
    ):
        tasks = PLANNING.plan(understand(text), USER).tasks
        (search,) = [t for t in tasks if t.skill == "search_knowledge_v1"]
        assert search.args == {"query": query}, text


def test_a_named_product_is_looked_up_by_its_catalogue_id() -> None:
    text = "do you have the bluetooth speaker in other colors?"
    tasks = PLANNING.plan(understand(text, ["Bluetooth Speaker", "Desk Lamp"]), USER).tasks
    types, details = tasks
    assert (types.skill, details.skill) == ("list_all_product_types_v1", "get_product_details_v1")
    assert details.args == {"product_id": "bind:product_id:Bluetooth Speaker"}
    assert details.depends_on == (types.id,)
    catalogue = '{"Bluetooth Speaker": "4768869376", "Desk Lamp": "6817146515"}'
    bound = bind_args(PLANNING, details.skill, details.args, {types.id: catalogue})
    assert bound == {"product_id": "4768869376"}
    # A name the catalogue lacks is the customer's value, not the system failing.
    with pytest.raises(UnusableValue, match="no product of that name"):
        PLANNING.bind("product_id:Mechanical Keyboard", {types.id: catalogue})
    # Only the catalogue's list is asked when no product is named.
    (alone,) = PLANNING.plan(understand("what products do you sell?"), USER).tasks
    assert alone.skill == "list_all_product_types_v1"
