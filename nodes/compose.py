"""Compose the answer from task results (rules tier: sentence templates).

Only facts read from task results are stated; tool output is data, so it is
quoted through fixed templates and never followed as an instruction.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from nodes.context import SupportContext
from nodes.contracts import Decision, Plan, ReviewVerdict, TaskOutcome
from nodes.domain import DomainPlanning
from nodes.failure_text import failure_sentence
from nodes.intake.rules import mask_pii
from nodes.quoting import as_document, own_order_ids, quote_data, quote_outcome
from nodes.state import SupportState, plan_of

_DONE = {
    "cancel_pending_order_v1": "Order {order_id} is now cancelled; the refund goes back to the original payment.",
    "modify_pending_order_address_v1": "The shipping address of order {order_id} is updated.",
    "modify_pending_order_payment_v1": "The payment method of order {order_id} is changed.",
    "modify_pending_order_items_v1": "The items of order {order_id} are changed.",
    "modify_user_address_v1": "Your account address is updated.",
    "return_delivered_order_items_v1": "A return is requested for order {order_id}; you will receive return instructions by e-mail.",
    "exchange_delivered_order_items_v1": "An exchange is requested for order {order_id}.",
    "send_notification_v1": "A notification to {recipient} is queued for delivery.",
    "transfer_to_human_agents_v1": "I have passed your case to a human colleague.",
}  # fmt: skip
# The notification step only queues; a row found already delivered says so.
_NOTIFIED = {
    "sent": "A notification was sent to {recipient}.",
    "failed": "A notification to {recipient} could not be delivered.",
}


async def compose(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    review = ReviewVerdict.model_validate(state["review"]) if state.get("review") else None
    sentences = compose_sentences(state, runtime.context.domain.planning if runtime else None)
    if review and not review.approved:
        sentences = [s for s in sentences if not any(f in s for f in _flagged(review))]
    draft = mask_pii(" ".join(sentences)) if sentences else "I could not complete your request."
    return {"draft": draft, "trace": [f"compose: {len(sentences)} sentence(s)"]}


def compose_sentences(state: SupportState, planning: DomainPlanning | None = None) -> list[str]:
    if state.get("refusal"):
        return [str(state["refusal"])]
    plan = plan_of(state)
    outcomes = state.get("outcomes") or {}
    sentences: list[str] = []
    changed = _changed_orders(plan, outcomes)
    own = own_order_ids(plan, outcomes)  # data text is quoted, never obeyed (nodes/quoting.py)
    for task in plan.tasks:
        if task.id not in outcomes:
            continue
        if task.skill == "get_order_details_v1" and task.args.get("order_id") in changed:
            continue  # the read's status is stale once a write on the order succeeded
        outcome = quote_outcome(TaskOutcome.model_validate(outcomes[task.id]), own)
        sentences.extend(_describe(outcome, task.args, planning))
    for raw in state.get("decisions") or []:
        d = Decision.model_validate(raw)
        reason = quote_data(d.answer, own_ids=own) or "unknown"
        sentences.append(f"Most likely reason for the delay: {reason}.")
    if state.get("human_reply"):
        sentences.append(f"A colleague replied: {state['human_reply']}")
    return list(dict.fromkeys(sentences))


def _changed_orders(plan: Plan, outcomes: dict[str, Any]) -> set[str]:
    return {
        str(t.args.get("order_id"))
        for t in plan.tasks
        if t.skill in _DONE and outcomes.get(t.id, {}).get("status") == "succeeded"
    }


def _step_name(skill: str) -> str:
    return skill.rsplit("_v", 1)[0].replace("_", " ")


def _describe(
    outcome: TaskOutcome, args: dict[str, Any], planning: DomainPlanning | None
) -> list[str]:
    payload = as_document(outcome.payload)
    if outcome.status == "rejected":
        return [
            f"The {_step_name(outcome.skill)} step was rejected by a reviewer; nothing was changed."
        ]
    if outcome.status == "failed":
        # Never `outcome.error`: internal text stays in the audit trail.
        precondition = planning.precondition_text(outcome.skill) if planning else None
        return [failure_sentence(outcome, args, precondition)]
    if outcome.status == "skipped":
        return [f"I did not {_step_name(outcome.skill)}: a step it depends on did not succeed."]
    if outcome.status != "succeeded":
        return []
    if outcome.skill in _DONE:
        fields = {**args, **(payload if isinstance(payload, dict) else {})}
        template = _DONE[outcome.skill]
        if outcome.skill == "send_notification_v1":
            template = _NOTIFIED.get(str(fields.get("status")), template)
        return [template.format_map(_Missing(fields))]
    return _describe_read(outcome.skill, payload)


def _describe_read(skill: str, payload: Any) -> list[str]:
    if isinstance(payload, dict) and "order_id" in payload and "status" in payload:
        return [f"Order {payload['order_id']} is {payload['status']}."]
    if isinstance(payload, dict) and "orders" in payload and "name" in payload:
        return [f"Your orders: {', '.join(payload['orders'])}."]
    if skill == "track_shipment_v1" and isinstance(payload, dict):
        return [_tracking_sentence(payload)]
    if skill == "calculate_eta_v1" and isinstance(payload, dict) and payload.get("eta"):
        return [f"Estimated delivery: {payload['eta']}."]
    if skill in ("search_knowledge_v1", "faq_cache_lookup_v1") and isinstance(payload, dict):
        hits = payload.get("results") or payload.get("hits") or []
        if hits:
            return [
                f"From our help centre: {str(hits[0].get('snippet') or hits[0].get('title'))[:300]}"
            ]
    if skill == "list_all_product_types_v1" and isinstance(payload, dict):
        return [f"We sell: {', '.join(sorted(payload)[:12])}."]
    return []


def _tracking_sentence(payload: dict[str, Any]) -> str:
    shipments = payload.get("shipments") or [payload]
    parts = []
    for s in shipments:
        events = s.get("events") or []
        last = events[-1] if events else {}
        where = last.get("location") or "unknown location"
        parts.append(
            f"Shipment {s.get('tracking_id')}: {last.get('description') or s.get('status')} at {where}"
        )
    return "; ".join(parts) + "."


def _flagged(review: ReviewVerdict) -> list[str]:
    return [f.split(": ", 1)[-1] for f in review.feedback]


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "your order" if key == "order_id" else "you"
