"""What a role agent's model is shown of a skill's result: every fact it needs to
answer, less what the call and the session already say and what no answer needs."""

from __future__ import annotations

from typing import Any, get_args, get_origin

from pydantic import BaseModel

from domains.retail.results import Order, Product, Tracking
from nodes.agent.shown import shown
from nodes.bootstrap import load_static_config

USER = "ada_brennan_5633"
SESSION = {"user_id": USER}
ADDRESS = {
    "address1": "3495 Lantern Street",
    "address2": "",
    "city": "Anchorage",
    "country": "USA",
    "state": "AK",
    "zip": "99586",
}


def order() -> dict[str, Any]:
    """An order document exactly as `get_order_details_v1` returns one."""
    pen = {"name": "Fountain Pen", "product_id": "9530552034", "item_id": "1836236107"}
    return Order(
        order_id="#W4812461",
        user_id=USER,
        address=ADDRESS,
        items=[{**pen, "price": 87.15, "options": {"nib": "F", "barrel": "wood"}}],
        status="processed",
        fulfillments=[{"tracking_id": ["202109441598"], "item_ids": ["1836236107"]}],
        payment_history=[
            {
                "transaction_type": "payment",
                "amount": 87.15,
                "payment_method_id": "gift_card_7000193",
            }
        ],
    ).model_dump(mode="json")


def test_an_order_is_shown_without_the_customer_the_asked_id_and_empty_fields() -> None:
    full = order()
    seen = shown(full, {"order_id": "#W4812461", "user_id": USER}, SESSION)
    assert isinstance(seen, dict)
    # Known from the session and the call: the customer's id, the order id asked for.
    assert "user_id" not in seen and "order_id" not in seen
    # Empty: no cancel reason, no exchange or return, no second address line.
    assert "cancel_reason" not in seen and "return_items" not in seen
    assert "address2" not in seen["address"]
    # Every fact of the order itself stays, as the skill returned it.
    kept = {k: v for k, v in full.items() if k not in ("order_id", "user_id", "address")}
    assert {k: v for k, v in kept.items() if v is not None} == {
        k: v for k, v in seen.items() if k != "address"
    }
    assert seen["address"] == {k: v for k, v in ADDRESS.items() if v}
    # The result itself is not changed: the findings keep all of it.
    assert full["user_id"] == USER and full["cancel_reason"] is None


def test_another_order_than_asked_keeps_its_id() -> None:
    seen = shown(order(), {"tracking_id": "202109441598"}, SESSION)
    assert isinstance(seen, dict) and seen["order_id"] == "#W4812461"


def test_a_variant_filed_under_its_item_id_does_not_repeat_it() -> None:
    variant = {"options": {"nib": "F"}, "available": True, "price": 87.15}
    full = Product(
        name="Fountain Pen",
        product_id="9530552034",
        variants={"1836236107": {"item_id": "1836236107", **variant}},
    ).model_dump(mode="json")
    seen = shown(full, {"product_id": "9530552034"}, SESSION)
    assert seen == {"name": "Fountain Pen", "variants": {"1836236107": variant}}


def test_a_skills_declared_omissions_leave_the_scans_facts() -> None:
    registry, _ = load_static_config()
    omits = registry.get("track_shipment_v1").metadata.model_omits
    scan = {
        "seq": 0,
        "occurred_at": "2025-03-12T15:53:00-05:00",
        "location": "Reno, NV",
        "event_code": "label_created",
        "description": "Shipping label created; SwiftRoute awaits the item",
    }
    shipment = {
        "tracking_id": "202109441598",
        "carrier": "SwiftRoute",
        "origin": "Reno, NV",
        "destination": "Anchorage, AK",
        "promised_delivery_date": "2025-03-15",
        "status": "in_transit",
        "events": [scan],
    }
    full = Tracking(order_id="#W4812461", shipments=[shipment]).model_dump(mode="json")
    seen = shown(full, {"order_id": "#W4812461"}, SESSION, omits)
    assert isinstance(seen, dict)
    (event,) = seen["shipments"][0]["events"]
    assert event == {k: scan[k] for k in ("occurred_at", "location", "description")}
    assert {k: v for k, v in seen["shipments"][0].items() if k != "events"} == {
        k: v for k, v in shipment.items() if k != "events"
    }


def test_a_text_result_is_shown_as_it_is() -> None:
    assert shown("3.0", {"expression": "1 + 2"}, SESSION) == "3.0"


def test_every_declared_omission_names_a_field_of_the_skills_result_model() -> None:
    registry, _ = load_static_config()
    declared = [(s, path) for s in registry for path in s.metadata.model_omits]
    assert declared
    for skill, path in declared:
        shape: Any = skill.output
        for name in path.split("."):
            shape = _element(shape)
            assert issubclass(shape, BaseModel) and name in shape.model_fields, (
                f"{skill.skill_id}: {path}"
            )
            shape = shape.model_fields[name].annotation


def _element(shape: Any) -> Any:
    """The model inside `list[...]`, `dict[str, ...]` or `... | None`."""
    while get_origin(shape) is not None:
        shape = [a for a in get_args(shape) if a is not type(None)][-1]
    return shape
