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
    assert compose_sentences(_state([read], outcomes), DOMAIN) == [
        f"Order {PENDING} is pending.",
        "It holds: T-Shirt (color: black, size: XXL, material: cotton, style: crew neck).",
    ]
    # Read for the cancel, not yet run: the cancel's own words will list what it touches.
    assert compose_sentences(_state([read, cancel], outcomes), DOMAIN) == [
        f"Order {PENDING} is pending."
    ]
    outcomes["t2"] = await _call(registry, tau2_db, cancel)
    (paid,) = outcomes["t1"]["payload"]["payment_history"]
    assert compose_sentences(_state([read, cancel], outcomes), DOMAIN) == [
        f"Order {PENDING} is now cancelled; the refund goes back to the original payment.",
        # The refund the cancellation made: its amount and where it goes.
        f"Refunded on order {PENDING}: ${paid['amount']:.2f} to your credit card"
        f" ({paid['payment_method_id']}).",
    ]


async def test_a_status_answer_tells_what_the_order_holds_counting_repeats(
    registry: SkillRegistry, tau2_db: Database
) -> None:
    read = Task(
        id="t1", role="order_query", skill="get_order_details_v1", args={"order_id": PENDING}
    )
    outcome = await _call(registry, tau2_db, read)
    shirt = outcome["payload"]["items"][0]
    plain = {**shirt, "name": "Gift Card", "item_id": "0000000001", "options": {}}
    outcome["payload"]["items"] = [shirt, {**shirt, "item_id": "0000000002"}, plain]
    english = compose_sentences(_state([read], {"t1": outcome}), DOMAIN)
    assert english[1] == (
        "It holds: 2 × T-Shirt (color: black, size: XXL, material: cotton, style: crew neck);"
        " Gift Card."
    )
    chinese = compose_sentences({**_state([read], {"t1": outcome}), "text": "这单里有什么"}, DOMAIN)
    assert chinese[1].startswith("订单中的商品：2 × T-Shirt (") and chinese[1].endswith(
        "；Gift Card。"
    )


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


def test_a_help_centre_answer_quotes_the_best_hit_in_the_customers_language() -> None:
    def hit(lang: str, snippet: str) -> dict[str, Any]:
        return {"partition": "return_policy", "slug": f"exchanges_{lang}", "title": snippet,
                "lang": lang, "topic": "exchanges", "rank": 1.0, "snippet": snippet}  # fmt: skip

    search = Task(id="t1", role="customer_support_rep", skill="search_knowledge_v1",
                  args={"query": "exchange"})  # fmt: skip
    payload = {"query": "exchange", "partitions": [],
               "results": [hit("en", "Items can be exchanged."), hit("zh", "商品可以换货。")]}  # fmt: skip
    outcome = TaskOutcome.model_validate(_succeeded(search, payload))
    assert DOMAIN.answers.describe(search, outcome, "zh") == ["帮助中心的说明：商品可以换货。"]
    assert DOMAIN.answers.describe(search, outcome, "en") == [
        "From our help centre: Items can be exchanged."
    ]
    english_only = {**payload, "results": payload["results"][:1]}
    alone = TaskOutcome.model_validate(_succeeded(search, english_only))
    assert DOMAIN.answers.describe(search, alone, "zh") == [
        "帮助中心的说明：Items can be exchanged."
    ]


def test_a_products_answer_lists_the_variants_in_stock_and_counts_the_rest() -> None:
    def variant(n: int, available: bool = True) -> dict[str, Any]:
        return {"item_id": f"{n:010d}", "options": {"color": f"c{n}", "size": "M"},
                "available": available, "price": 10.0 + n}  # fmt: skip

    task = Task(id="t2", role="order_query", skill="get_product_details_v1",
                args={"product_id": "1234567890"})  # fmt: skip
    variants = [variant(n) for n in range(8)] + [variant(9, available=False)]
    payload = {"name": "Rain Jacket", "product_id": "1234567890",
               "variants": {v["item_id"]: v for v in variants}}  # fmt: skip
    outcome = TaskOutcome.model_validate(_succeeded(task, payload))
    (english,) = DOMAIN.answers.describe(task, outcome, "en")
    assert english.startswith("Rain Jacket is in stock in: color: c0, size: M $10.00; ")
    assert "c5, size: M $15.00; and 2 more." in english and "c9" not in english
    (chinese,) = DOMAIN.answers.describe(task, outcome, "zh")
    assert chinese.startswith("Rain Jacket 有货的款式：") and chinese.endswith("；另有 2 种。")
    sold_out = {**payload, "variants": {v["item_id"]: {**v, "available": False} for v in variants}}
    gone = TaskOutcome.model_validate(_succeeded(task, sold_out))
    assert DOMAIN.answers.describe(task, gone, "en") == [
        "Rain Jacket is out of stock in every option right now."
    ]
