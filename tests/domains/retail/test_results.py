"""Every retail skill's real result validates against its model in `RESULTS`."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from checkpoints.opening import Database
from domains.retail.results import RESULTS, DelayReport, Eta, Order
from domains.retail.tools.replay import CATALOG
from skills.context import RuntimeContext
from skills.registry import SkillRegistry, load_catalog

AS_OF = "2025-03-14T12:00:00-05:00"
YUSUF = "yusuf_rossi_9620"
ADDRESS = {
    "address1": "1 Main St",
    "address2": "",
    "city": "Austin",
    "state": "TX",
    "country": "USA",
    "zip": "78701",
}
# (skill, args, customer): reads first, then each write on an order it may change.
CALLS: list[tuple[str, dict[str, Any], str | None]] = [
    ("calculate_v1", {"expression": "2 + 3 * 4"}, None),
    ("find_user_id_by_email_v1", {"email": "yusuf.rossi7301@example.com"}, None),
    (
        "find_user_id_by_name_zip_v1",
        {"first_name": "Yusuf", "last_name": "Rossi", "zip": "19122"},
        None,
    ),
    ("get_user_details_v1", {"user_id": YUSUF}, YUSUF),
    ("get_order_details_v1", {"order_id": "#W2378156"}, YUSUF),
    ("get_product_details_v1", {"product_id": "9523456873"}, None),
    ("get_item_details_v1", {"item_id": "3799046073"}, None),
    ("list_all_product_types_v1", {}, None),
    ("track_shipment_v1", {"order_id": "#W2378156"}, YUSUF),
    ("calculate_eta_v1", {"order_id": "#W2378156", "as_of": AS_OF}, YUSUF),
    ("detect_delay_pattern_v1", {"tracking_id": "843053632392", "as_of": AS_OF}, YUSUF),
    ("generate_summary_v1", {"topic": "orders", "results": {"a": {"status": "ok"}}}, None),
    ("transfer_to_human_agents_v1", {"summary": "wants a person"}, YUSUF),
    ("search_knowledge_v1", {"query": "return policy"}, None),
    ("faq_cache_lookup_v1", {"question": "how do I return an item"}, None),
    (
        "send_notification_v1",
        {"user_id": YUSUF, "subject": "Your order", "body": "It shipped."},
        YUSUF,
    ),
    (
        "modify_pending_order_items_v1",
        {
            "order_id": "#W6247578",
            "item_ids": ["3799046073"],
            "new_item_ids": ["9612497925"],
            "payment_method_id": "credit_card_9513926",
        },
        YUSUF,
    ),
    ("modify_pending_order_address_v1", {"order_id": "#W4776164", **ADDRESS}, YUSUF),
    (
        "modify_pending_order_payment_v1",
        {"order_id": "#W8855135", "payment_method_id": "paypal_8194385"},
        "sofia_li_9219",
    ),
    ("cancel_pending_order_v1", {"order_id": "#W4776164", "reason": "no longer needed"}, YUSUF),
    (
        "exchange_delivered_order_items_v1",
        {
            "order_id": "#W6679257",
            "item_ids": ["5996159312"],
            "new_item_ids": ["6384525445"],
            "payment_method_id": "credit_card_9513926",
        },
        YUSUF,
    ),
    (
        "return_delivered_order_items_v1",
        {
            "order_id": "#W2378156",
            "item_ids": ["4202497723"],
            "payment_method_id": "credit_card_9513926",
        },
        YUSUF,
    ),
    ("modify_user_address_v1", {"user_id": YUSUF, **ADDRESS}, YUSUF),
]


@pytest.fixture(scope="module")
def registry() -> SkillRegistry:
    return load_catalog(CATALOG)


async def _call(
    registry: SkillRegistry, db: Database, skill: str, args: dict[str, Any], user: str | None
) -> Any:
    executor = registry.get(skill).executor
    ctx = RuntimeContext(pool=db.pool, user_id=user)
    return await executor.execute(executor.validate_input(args), ctx)


def test_every_catalog_skill_has_a_result_model(registry: SkillRegistry) -> None:
    assert set(RESULTS) == set(registry.skill_ids)
    assert set(RESULTS) == {skill for skill, _, _ in CALLS}


async def test_every_real_result_validates(registry: SkillRegistry, tau2_db: Database) -> None:
    for skill, args, user in CALLS:
        payload = await _call(registry, tau2_db, skill, args, user)
        model: type[BaseModel] = RESULTS[skill]
        model.model_validate(payload)


async def test_models_read_the_fields_answers_rely_on(
    registry: SkillRegistry, tau2_db: Database
) -> None:
    args = {"order_id": "#W2378156", "as_of": AS_OF}
    eta = Eta.model_validate(await _call(registry, tau2_db, "calculate_eta_v1", args, None))
    assert eta.order_id == "#W2378156" and eta.shipments[0].tracking_id == "843053632392"
    delay = await _call(registry, tau2_db, "detect_delay_pattern_v1", args, None)
    assert DelayReport.model_validate(delay).shipments[0].verdict


def test_a_changed_shape_is_refused() -> None:
    with pytest.raises(ValidationError):
        Order.model_validate({"order_id": "#W1", "surprise": 1})
