"""The three seam defects of issue 8, on the real executors and the generated reference data.

- the delay detector's verdict (per shipment) is what arbitration weighs and adopts;
- a knowledge outage falls back to the FAQ cache with arguments it accepts, and its
  answer is told;
- a late order's answer states the estimated delivery date `calculate_eta_v1` computed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from checkpoints.audit import fetch_audit_chain
from domains.retail.pack import DOMAIN
from domains.retail.results import DelayReport, Eta, FaqLookup
from graphs.api import compile_support, run_request
from nodes.arbitrate import decide, to_proposal
from nodes.contracts import TaskOutcome
from skills.context import RuntimeContext
from skills.errors import SkillTimeout
from tests.integration.graph.helpers import with_executor
from tests.support_fixtures import Support

WHY_LATE = "why_is_my_shipment_late"
AS_OF = "2026-06-01T12:00:00-05:00"  # long after every promised date of the reference data


async def _late_order(pool: Any) -> dict[str, Any]:
    """A processed order of one customer whose only shipment has delay scans."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT o.order_id, o.user_id, min(t.tracking_id) AS tracking_id FROM orders o"
            " JOIN fulfillment_tracking_ids t USING (order_id)"
            " WHERE o.status = 'processed' GROUP BY o.order_id, o.user_id"
            " HAVING count(*) = 1 AND bool_and(EXISTS (SELECT 1 FROM tracking_events e"
            "   WHERE e.tracking_id = t.tracking_id AND e.event_code = 'delay'))"
            " ORDER BY o.order_id LIMIT 1"
        )
        row = await cur.fetchone()
    assert row is not None, "no processed order with a delayed shipment in the reference data"
    return dict(row)


async def _call(support: Support, skill: str, args: dict[str, Any], user: str | None) -> Any:
    executor = support.ctx.registry.get(skill).executor
    ctx = RuntimeContext(pool=support.db.pool, user_id=user)
    return await executor.execute(executor.validate_input(args), ctx)


def _outcome(skill: str, role: str, payload: Any) -> TaskOutcome:
    return TaskOutcome(task_id=skill, skill=skill, role=role, status="succeeded", payload=payload)


async def test_the_detectors_confident_verdict_is_adopted(support: Support) -> None:
    late = await _late_order(support.db.pool)
    args = {"order_id": late["order_id"], "as_of": AS_OF}
    report = await _call(support, "detect_delay_pattern_v1", args, late["user_id"])
    [shipment] = DelayReport.model_validate(report).shipments
    assert (shipment.verdict, shipment.confidence) == ("delayed", 0.95)
    search = await _call(
        support, "search_knowledge_v1", {"query": "shipment delayed late delivery carrier"}, None
    )
    answers = DOMAIN.answers
    detector = to_proposal(WHY_LATE, _outcome("detect_delay_pattern_v1", "logistics_analyst", report), answers)  # fmt: skip
    knowledge = to_proposal(WHY_LATE, _outcome("search_knowledge_v1", "customer_support_rep", search), answers)  # fmt: skip
    assert detector is not None and knowledge is not None
    assert (detector.answer, detector.confidence) == ("delayed", 0.95)
    assert detector.evidence == tuple(shipment.evidence)
    decision = decide(WHY_LATE, [detector, knowledge])
    assert (decision.answer, decision.rule) == ("delayed", "adopt_confident")


async def test_my_order_is_late_states_the_reason_and_the_estimated_date(support: Support) -> None:
    late = await _late_order(support.db.pool)
    result = await run_request(
        support.graph, support.ctx, user_id=late["user_id"],
        text=f"Order {late['order_id']} is really late, when will it arrive?",
    )  # fmt: skip
    assert result.status == "completed", result
    assert "delay_complaint" in result.intents
    assert "Delay check: the shipment is delayed (" in result.answer, result.answer
    assert "delay scan(s)" in result.answer  # the detector's evidence is the stated reason
    state = await support.graph.aget_state({"configurable": {"thread_id": result.thread_id}})
    [eta_payload] = [
        o["payload"] for o in state.values["outcomes"].values() if o["skill"] == "calculate_eta_v1"
    ]
    [estimate] = Eta.model_validate(eta_payload).shipments
    assert estimate.estimated_delivery is not None
    day = datetime.fromisoformat(estimate.estimated_delivery).date().isoformat()
    assert f"Shipment {late['tracking_id']}: estimated delivery {day}" in result.answer


class _SearchDown:
    """`search_knowledge_v1` whose database search times out."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def validate_input(self, args: Any) -> dict[str, Any]:
        return dict(self.real.validate_input(args))

    async def execute(self, args: dict[str, Any], ctx: Any) -> Any:
        raise SkillTimeout("search_knowledge_v1", 2.0)

    async def rollback(self, args: dict[str, Any], ctx: Any, payload: Any) -> None:
        return None


async def test_a_knowledge_outage_is_answered_from_the_faq_cache(support: Support) -> None:
    real = support.ctx.registry.get("search_knowledge_v1").executor
    ctx = with_executor(support, "search_knowledge_v1", _SearchDown(real))
    graph = compile_support(ctx, support.db.checkpointer)
    user = await _any_user(support)
    text = "what is your policy on payment methods?"
    result = await run_request(graph, ctx, text=text, user_id=user)

    assert result.status == "completed", result
    faq = FaqLookup.model_validate(await _call(support, "faq_cache_lookup_v1", {"question": text}, None))  # fmt: skip
    assert faq.answers, "the FAQ cache has no answer to the question"
    assert result.answer.startswith("From our help centre: "), result.answer
    assert faq.answers[0].answer[:40] in result.answer
    async with support.db.pool.connection() as conn:
        chain = await fetch_audit_chain(conn, str(result.audit_id))
    fallback = [r.event for r in chain if r.event.skill == "faq_cache_lookup_v1"]
    assert [e.status for e in fallback] == ["success"]  # it accepted the mapped arguments


async def _any_user(support: Support) -> str:
    async with support.db.pool.connection() as conn:
        cur = await conn.execute("SELECT user_id FROM users ORDER BY user_id LIMIT 1")
        row = await cur.fetchone()
    assert row is not None
    return str(row["user_id"])
