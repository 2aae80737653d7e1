"""The token benchmark's conversation: 20 turns of one customer over the retail catalog,
each a goal for one role agent and the model's scripted steps for it.

Every id is the reference data's (`Subjects`), so every tool call really runs
through the skill runtime and its result is what the model is shown. Some
turns load a skill's instructions first (one loads four, so the least recently
used is evicted); some call two tools in one step.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.messages.tool import ToolCall

from checkpoints.opening import Database
from domains.retail.storage.seed import ensure_reference_data
from nodes.agent.tools import LOAD_SKILL

Call = tuple[str, dict[str, Any]]
Step = tuple[Call, ...] | str
"""One model reply: the tool calls it makes, or its closing text."""
_ids = itertools.count()


@dataclass(frozen=True)
class Turn:
    """One customer message, the goal the planner hands the agent for it, and the
    model's replies while pursuing it."""

    customer: str
    goal: str
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Subjects:
    """The customer the conversation is with and records of theirs it names."""

    user_id: str
    orders: tuple[str, str, str]
    item_id: str
    product_id: str


def use(skill: str, **args: Any) -> Call:
    return (skill, args)


def load(*skills: str) -> tuple[Call, ...]:
    return tuple((LOAD_SKILL, {"name": s}) for s in skills)


def reply(step: Step) -> AIMessage:
    """The model's reply for `step`, with call ids unique across the run."""
    if isinstance(step, str):
        return AIMessage(content=step)
    calls = [ToolCall(name=n, args=a, id=f"call_{next(_ids)}", type="tool_call") for n, a in step]
    return AIMessage(content="", tool_calls=calls)


def conversation(s: Subjects) -> list[Turn]:
    """The 20 turns."""
    o1, o2, o3 = s.orders
    order = "get_order_details_v1"
    # fmt: off
    return [
        Turn("hi, what do you have on file for me?", "show the customer's profile",
             ((use("get_user_details_v1"),), "Here is your profile.")),
        Turn(f"what is in order {o1}?", f"list the items of order {o1}",
             (load(order), (use(order, order_id=o1),), f"Order {o1} holds these items.")),
        Turn(f"and {o2}?", f"list the items of order {o2}",
             ((use(order, order_id=o2),), f"Order {o2} holds these items.")),
        Turn(f"where is {o1} now?", f"find where the shipment of order {o1} is",
             (load("track_shipment_v1"), (use("track_shipment_v1", order_id=o1),),
              f"This is where {o1} is.")),
        Turn(f"when will {o2} arrive?", f"estimate when order {o2} arrives",
             (load("calculate_eta_v1"), (use("calculate_eta_v1", order_id=o2),),
              f"Order {o2} should arrive as shown.")),
        Turn(f"is {o2} delayed?", f"check whether order {o2} is delayed",
             ((use("detect_delay_pattern_v1", order_id=o2),), f"Order {o2} is as shown.")),
        Turn(f"tell me about product {s.product_id}", f"describe product {s.product_id}",
             ((use("get_product_details_v1", product_id=s.product_id),), "Here it is.")),
        Turn(f"what exactly is item {s.item_id}?", f"describe item {s.item_id}",
             ((use("get_item_details_v1", item_id=s.item_id),), "Here it is.")),
        Turn("what kinds of products do you sell?", "list the product types",
             ((use("list_all_product_types_v1"),), "These are our product types.")),
        Turn("what is your return policy?", "find the return policy",
             (load("search_knowledge_v1"), (use("search_knowledge_v1", query="return policy"),),
              "Our return policy is as shown.")),
        Turn("how long does shipping usually take?", "find how long shipping takes",
             ((use("faq_cache_lookup_v1", question="how long does shipping take"),),
              "Shipping takes as long as shown.")),
        Turn(f"what did {o1} and {o2} cost together?", f"add up the totals of {o1} and {o2}",
             ((use(order, order_id=o1), use(order, order_id=o2)),
              (use("calculate_v1", expression="1 + 2"),), "Together they cost this much.")),
        Turn(f"what about {o3}?", f"list the items of order {o3}",
             ((use(order, order_id=o3),), f"Order {o3} holds these items.")),
        Turn(f"can I still return things from {o1}?", f"check whether order {o1} can be returned",
             (load("return_delivered_order_items_v1", order),
              (use(order, order_id=o1), use("search_knowledge_v1", query="return window")),
              f"Order {o1} is as shown.")),
        Turn(f"compare the shipping of {o1} and {o3}", f"track orders {o1} and {o3}",
             ((use("track_shipment_v1", order_id=o1), use("track_shipment_v1", order_id=o3)),
              "Both are as shown.")),
        Turn("which payment methods do I have?", "list the customer's payment methods",
             ((use("get_user_details_v1"),), "These are your payment methods.")),
        Turn("what does a payment declined error mean?", "explain a payment declined error",
             ((use("search_knowledge_v1", query="payment declined", partitions=["faq"]),),
              "That error means what is shown.")),
        Turn("can you sum up my account?", "summarise the customer's orders",
             (load("generate_summary_v1", "get_user_details_v1", order, "calculate_v1"),
              (use("get_user_details_v1"),), "This is your account.")),
        Turn(f"what is the eta of {o3}?", f"estimate when order {o3} arrives",
             ((use("calculate_eta_v1", order_id=o3),), f"Order {o3} should arrive as shown.")),
        Turn(f"thanks. anything else about {o2}?", f"recheck order {o2} and its shipment",
             ((use(order, order_id=o2), use("track_shipment_v1", order_id=o2)),
              f"Nothing else about {o2}.")),
    ]
    # fmt: on


async def subjects(db: Database) -> Subjects:
    """The first customer of the reference data with three orders or more."""
    async with db.pool.connection() as conn:
        await ensure_reference_data(conn)
        cur = await conn.execute(
            "SELECT o.user_id, array_agg(o.order_id ORDER BY o.order_id) AS ids FROM orders o"
            " GROUP BY o.user_id HAVING count(*) >= 3 ORDER BY o.user_id LIMIT 1"
        )
        user = await cur.fetchone()
        assert user is not None, "the reference data has no customer with three orders"
        cur = await conn.execute(
            "SELECT item_id, product_id FROM order_items WHERE order_id = %s"
            " ORDER BY position LIMIT 1",
            (user["ids"][0],),
        )
        item = await cur.fetchone()
    assert item is not None
    first, second, third = user["ids"][:3]
    return Subjects(user["user_id"], (first, second, third), item["item_id"], item["product_id"])


def calls_in(turns: Iterable[Turn]) -> int:
    """How many skill calls (not loads) the conversation scripts."""
    return sum(
        1 for t in turns for s in t.steps if not isinstance(s, str) for n, _ in s if n != LOAD_SKILL
    )
