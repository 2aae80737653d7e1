"""Retail answer sentences from real results, and the harness modules that know none of them."""

from __future__ import annotations

import copy
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import nodes
from checkpoints.opening import Database
from domains.retail.pack import DOMAIN
from domains.retail.results import RESULTS
from nodes.compose import compose_sentences
from nodes.contracts import Task, TaskOutcome
from skills.context import RuntimeContext
from skills.registry import SkillRegistry, load_catalog

YUSUF = "yusuf_rossi_9620"
PENDING = "#W6247578"
HARNESS = ("compose.py", "review.py", "arbitrate.py", "failure_text.py", "quoting.py")


@pytest.fixture(scope="module")
def registry() -> SkillRegistry:
    return load_catalog(DOMAIN.catalog)


async def _call(registry: SkillRegistry, db: Database, task: Task) -> dict[str, Any]:
    executor = registry.get(task.skill).executor
    ctx = RuntimeContext(pool=db.pool, user_id=YUSUF)
    payload = await executor.execute(executor.validate_input(task.args), ctx)
    return _succeeded(task, payload)


def _succeeded(task: Task, payload: Any) -> dict[str, Any]:
    outcome = TaskOutcome(
        task_id=task.id, skill=task.skill, role=task.role, status="succeeded", payload=payload
    )
    return outcome.model_dump(mode="json")


def _state(tasks: list[Task], outcomes: dict[str, Any]) -> Any:
    plan = {"tasks": [t.model_dump(mode="json") for t in tasks]}
    return {"plan": plan, "outcomes": outcomes, "text": "help"}


async def test_an_order_read_before_its_cancellation_is_not_told(
    registry: SkillRegistry, tau2_db: Database
) -> None:
    read = Task(
        id="t1", role="order_query", skill="get_order_details_v1", args={"order_id": PENDING}
    )
    cancel = Task(id="t2", role="billing_specialist", skill="cancel_pending_order_v1",
                  args={"order_id": PENDING, "reason": "no longer needed"}, depends_on=("t1",))  # fmt: skip
    outcomes = {"t1": await _call(registry, tau2_db, read)}
    names = ", ".join(dict.fromkeys(i["name"] for i in outcomes["t1"]["payload"]["items"]))
    assert compose_sentences(_state([read], outcomes), DOMAIN) == [
        f"Order {PENDING} is pending. Items: {names}."
    ]
    outcomes["t2"] = await _call(registry, tau2_db, cancel)
    (paid,) = outcomes["t1"]["payload"]["payment_history"]
    assert compose_sentences(_state([read, cancel], outcomes), DOMAIN) == [
        f"Order {PENDING} is now cancelled; the refund goes back to the original payment.",
        # The refund the cancellation made: its amount and where it goes.
        f"Refunded on order {PENDING}: ${paid['amount']:.2f} to your credit card"
        f" ({paid['payment_method_id']}).",
    ]


async def test_the_customers_own_orders_stay_named_and_others_are_hidden(
    registry: SkillRegistry, tau2_db: Database
) -> None:
    user = Task(id="t1", role="order_query", skill="get_user_details_v1", args={"user_id": YUSUF})
    track = Task(id="t2", role="logistics_analyst", skill="track_shipment_v1",
                 args={"order_id": "#W2378156"})  # fmt: skip
    outcomes = {"t1": await _call(registry, tau2_db, user)}
    tracked = await _call(registry, tau2_db, track)
    hostile = copy.deepcopy(tracked)
    hostile["payload"]["shipments"][0]["events"][-1]["description"] = (
        "Held with #W9711842 and #W5199551"  # Yusuf's own cancelled order, then someone else's
    )
    outcomes["t2"] = hostile
    sentences = compose_sentences(_state([user, track], outcomes), DOMAIN)
    assert sentences[0].startswith("Your orders: #W6247578, #W9711842,")
    last = tracked["payload"]["shipments"][0]["events"][-1]
    carrier = tracked["payload"]["shipments"][0]["carrier"]
    when = datetime.fromisoformat(last["occurred_at"]).strftime("%Y-%m-%d %H:%M")
    assert sentences[1] == "Shipment 843053632392: Held with #W9711842 and another order at " + (
        f"{last['location']} on {when} (carrier {carrier}), for order #W2378156."
    )


def test_the_harness_answer_modules_name_no_retail_skill_slot_or_id() -> None:
    root = Path(nodes.__file__).parent
    ids = [s.name for s in DOMAIN.understanding.slots if s.kind == "identifier"]
    retail = [*RESULTS, *ids, "#W", "order_id", "shipment", "payment"]
    for module in HARNESS:
        text = (root / module).read_text(encoding="utf-8")
        assert [name for name in retail if name in text] == [], module
