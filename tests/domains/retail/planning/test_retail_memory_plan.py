"""How a remembered refund method changes a retail return plan and its binding."""

from __future__ import annotations

from domains.retail.memory import RetailMemory
from domains.retail.pack import DOMAIN
from domains.retail.planning.binding import resolve
from nodes.contracts import Plan
from nodes.intake.rules import understand

USER = "ann_lee_1234"
ORDER = {"order_id": "#W1234567", "payment_history": [{"payment_method_id": "credit_card_1"}]}
USER_DOC = {
    "payment_methods": {
        "credit_card_1": {"source": "credit_card"},
        "gift_card_2": {"source": "gift_card"},
        "paypal_3": {"source": "paypal"},
    }
}


def _return_plan() -> Plan:
    return DOMAIN.planning.plan(
        understand("I want to return #W1234567", DOMAIN.understanding, {}), USER
    )


def test_a_remembered_method_reads_the_account_and_marks_the_refund() -> None:
    plan = RetailMemory().apply(_return_plan(), {"refund_method": "gift_card"}, USER)
    by_skill = {t.skill: t for t in plan.tasks}
    user = by_skill["get_user_details_v1"]
    ret = by_skill["return_delivered_order_items_v1"]
    assert user.args == {"user_id": USER}
    assert ret.args["payment_method_id"] == "bind:preferred_payment:gift_card"
    assert user.id in ret.depends_on
    assert DOMAIN.planning.is_marker("preferred_payment:gift_card")


def test_without_a_refund_fact_the_plan_is_unchanged() -> None:
    plan = _return_plan()
    assert RetailMemory().apply(plan, {"language": "zh"}, USER) == plan


def test_binding_uses_the_preference_only_where_policy_allows() -> None:
    results = {"t1": ORDER, "m1": USER_DOC}
    assert resolve("preferred_payment:gift_card", results) == "gift_card_2"
    # A refund may only go to a gift card or the original payment.
    assert resolve("preferred_payment:paypal", results) == "credit_card_1"
    # Not one of the customer's own methods: the original payment.
    assert resolve("preferred_payment:gift_card", {"t1": ORDER, "m1": {"payment_methods": {}}}) == (
        "credit_card_1"
    )
