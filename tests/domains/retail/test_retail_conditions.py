"""Retail conditions: read from English and Chinese text, put on order writes by the
templates, and told from real order reads in both languages (issue 10 §2)."""

from __future__ import annotations

from typing import Any

import pytest

from checkpoints.opening import Database
from domains.retail.conditions import CONDITIONS, FIELDS, condition_on, read_condition
from domains.retail.pack import DOMAIN
from domains.retail.understanding import understand
from nodes.bootstrap import load_static_config
from nodes.compose import compose_sentences
from nodes.conditions import CONDITION_NOT_MET, verdict
from nodes.contracts import Task, TaskOutcome
from nodes.language import CJK, Lang
from nodes.planner.validate import validate_plan
from nodes.review import check
from nodes.state import TaskOutcomeData, stored
from skills.context import RuntimeContext
from skills.registry import SkillRegistry
from tests.integration.graph.helpers import user_with_orders

USER = "ann_lee_1234"
READINGS = {
    "If it hasn't shipped yet, cancel #W1234567": "not_shipped",
    "Cancel #W1234567 as long as it is still pending": "not_shipped",
    "please cancel #W1234567 only if it’s not sent out yet": "not_shipped",
    "provided #W1234567 hasn't shipped, cancel it": "not_shipped",
    "cancel #W1234567 unless it has already shipped": "not_shipped",
    "if it hasn't arrived yet, cancel #W1234567": "not_delivered",
    "if #W1234567 has been delivered, I want to return it": "delivered",
    "return #W1234567 if I've received it": "delivered",
    "cancel #W1234567 unless it's been delivered": "not_delivered",
    "要是还没发货就帮我取消 #W1234567": "not_shipped",
    "假如 #W1234567 还没发货，请取消": "not_shipped",
    "只要 #W1234567 没发出就取消": "not_shipped",
    "还没发货就取消 #W1234567 吧": "not_shipped",
    "除非已经发货了，否则取消 #W1234567": "not_shipped",
    "如果还没到就取消 #W1234567": "not_delivered",
    "#W1234567 送到了的话帮我退货": "delivered",
    "如果 #W1234567 已经到了，我要退货": "delivered",
}
NO_CONDITION = (
    "cancel #W1234567",
    "cancel #W1234567 if possible",
    "it hasn't shipped yet, cancel #W1234567",  # a statement, not a condition
    "我的订单 #W1234567 还没发货，帮我取消",
    "what is the status of #W1234567? has it shipped?",
)
WRITES = {
    "If #W1234567 hasn't shipped yet, cancel it": "cancel_pending_order_v1",
    "if #W1234567 has been delivered, I want to return it": "return_delivered_order_items_v1",
    "If #W1234567 hasn't shipped, change its address to 12 Oak St, Austin, TX 78701":
        "modify_pending_order_address_v1",
    "如果 #W1234567 还没发货，改用礼品卡付款": "modify_pending_order_payment_v1",
}  # fmt: skip


@pytest.mark.parametrize(("text", "condition"), READINGS.items())
def test_a_condition_is_read_in_english_and_chinese(text: str, condition: str) -> None:
    assert read_condition(text) == condition
    assert understand(text).slot("condition") == (condition,)


@pytest.mark.parametrize("text", NO_CONDITION)
def test_no_condition_without_a_conditional_word_and_a_state(text: str) -> None:
    assert read_condition(text) is None and understand(text).slot("condition") == ()


@pytest.mark.parametrize(("text", "skill"), WRITES.items())
def test_every_order_write_is_gated_on_its_own_lookup(text: str, skill: str) -> None:
    understanding = understand(text)
    plan = DOMAIN.planning.plan(understanding, USER)
    (write,) = [t for t in plan.tasks if t.skill == skill]
    assert write.when is not None
    lookup = plan.task(write.when.task)
    assert (lookup.skill, lookup.args["order_id"]) == ("get_order_details_v1", "#W1234567")
    assert write.when.values == CONDITIONS[understanding.first("condition") or ""]
    assert all(t.when is None for t in plan.tasks if t is not write)
    registry, roles = load_static_config()
    known = frozenset(registry.skill_ids)
    validate_plan(
        plan, roles, known, USER, bulk_args=(), conditions=DOMAIN.planning.condition_fields
    )
    # Without the condition the same request plans the same write, ungated.
    plain = understanding.model_copy(update={"slots": {**understanding.slots, "condition": ()}})
    assert all(t.when is None for t in DOMAIN.planning.plan(plain, USER).tasks)


def test_several_orders_are_each_gated_on_their_own_lookup() -> None:
    plan = DOMAIN.planning.plan(
        understand("if they haven't shipped, cancel #W1234567 and #W7654321"), USER
    )
    cancels = [t for t in plan.tasks if t.skill == "cancel_pending_order_v1"]
    assert [plan.task(c.when.task).args["order_id"] for c in cancels if c.when] == [
        "#W1234567", "#W7654321"]  # fmt: skip


def test_the_pack_lets_conditions_test_an_order_reads_status_only() -> None:
    registry, _ = load_static_config()
    (field,) = FIELDS
    assert (field.skill, field.field) == ("get_order_details_v1", "status")
    assert field.field in registry.get(field.skill).output.model_fields
    assert all(set(values) <= set(field.values) for values in CONDITIONS.values())


async def _order_read(registry: SkillRegistry, db: Database, status: str) -> TaskOutcome:
    user, (order,) = await user_with_orders(db.pool, status)
    executor = registry.get("get_order_details_v1").executor
    payload = await executor.execute(
        executor.validate_input({"order_id": order}), RuntimeContext(pool=db.pool, user_id=user)
    )
    return TaskOutcome(task_id="t1", skill="get_order_details_v1", role="order_query",
                       status="succeeded", payload=payload)  # fmt: skip


def _state(lang: Lang, read: TaskOutcome, write: Task, held: bool) -> Any:
    after: TaskOutcomeData = stored(
        TaskOutcome(
            task_id=write.id,
            skill=write.skill,
            role=write.role,
            status="skipped",
            error_code=CONDITION_NOT_MET,
            attempts=0,
        ),
        TaskOutcomeData,
    )
    if held:
        after = {**after, "status": "awaiting_confirmation", "error_code": None}
    read_task = Task(id="t1", role="order_query", skill=read.skill, args={"order_id": "x"})
    return {
        "understanding": {"lang": lang},
        "text": "if it hasn't shipped, cancel it",
        "plan": {"tasks": [read_task.model_dump(mode="json"), write.model_dump(mode="json")]},
        "outcomes": {"t1": read.model_dump(mode="json"), write.id: after},
    }


@pytest.mark.parametrize("status", ["pending", "processed", "delivered", "cancelled"])
async def test_which_way_it_went_is_told_from_the_read_and_passes_review(
    retail_db: Database, status: str
) -> None:
    registry, _ = load_static_config()
    read = await _order_read(registry, retail_db, status)
    order_id = read.payload["order_id"]
    for skill, name in (("cancel_pending_order_v1", "not_shipped"),
                        ("return_delivered_order_items_v1", "delivered")):  # fmt: skip
        write = Task(id="t2", role="billing_specialist", skill=skill, depends_on=("t1",),
                     args={"order_id": order_id}, when=condition_on("t1", name))  # fmt: skip
        held = verdict(write.when, stored(read, TaskOutcomeData), registry).held  # type: ignore[arg-type]
        assert held == (status in CONDITIONS[name])
        for lang in ("en", "zh"):
            state = _state(lang, read, write, held)
            sentences = compose_sentences(state, DOMAIN)
            said = " ".join(sentences)
            assert sentences[0].count(order_id) == 1, said  # the read itself is not told again
            assert ("status" in said) if lang == "en" else ("状态：" in said and CJK.search(said))
            assert ("did not" in said or "没有为您" in said) != held, said
            assert check(said, state, DOMAIN.answers).approved, said
