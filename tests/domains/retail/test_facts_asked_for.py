"""Answers state the facts a customer asks for (issue 10 §3): each refund's amount
and the payment method it goes to, a tracked order's ETA date and the carrier's
last scan (where, when, what) — from the results only, so the reviewer's
traceability check passes. On the generated reference data, both languages."""

from __future__ import annotations

import re
from typing import Any

from graphs.api import RunReport, run_request
from tests.integration.graph.helpers import user_with_orders
from tests.support_fixtures import Support


async def _run(support: Support, user: str, text: str) -> RunReport:
    report = await run_request(support.graph, support.ctx, text=text, user_id=user)
    assert report.status == "completed", report.trace
    assert "review: approved" in report.trace, report.trace
    return report


async def _order(support: Support, order_id: str) -> dict[str, Any]:
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT transaction_type, amount, payment_method_id FROM order_payments"
            " WHERE order_id = %s ORDER BY position",
            (order_id,),
        )
        rows = await cur.fetchall()
    return {"refunds": [r for r in rows if r["transaction_type"] == "refund"]}


async def test_a_refund_question_states_every_refunded_amount_and_where_it_goes(
    support: Support,
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "cancelled", skip=3)
    refunds = (await _order(support, order))["refunds"]
    assert refunds, "a cancelled order of the reference data carries its refunds"
    en = await _run(support, user, f"Where is my refund for order {order}?")
    zh = await _run(support, user, f"订单{order}的退款什么时候到账？")
    for refund in refunds:
        amount = f"${float(refund['amount']):.2f}"
        method = refund["payment_method_id"]
        assert f"{amount} to your " in en.answer and f"({method})" in en.answer, en.answer
        assert f"{amount} 退回您的" in zh.answer and f"（{method}）" in zh.answer, zh.answer
    assert f"Refunded on order {order}: " in en.answer
    assert f"订单 {order} 已退款：" in zh.answer


async def test_a_requested_return_says_where_its_refund_will_go(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "return requested")
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT return_payment_method_id FROM orders WHERE order_id = %s", (order,)
        )
        row = await cur.fetchone()
    assert row is not None and row["return_payment_method_id"]
    report = await _run(support, user, f"has my refund for {order} been processed?")
    assert f"The refund for the returned items of order {order} goes to your " in report.answer
    assert row["return_payment_method_id"] in report.answer


async def _last_scan(support: Support, order_id: str) -> dict[str, Any]:
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT s.tracking_id, s.carrier, e.occurred_at, e.location, e.description"
            " FROM fulfillment_tracking_ids t JOIN shipments s USING (tracking_id)"
            " JOIN tracking_events e USING (tracking_id) WHERE t.order_id = %s"
            " ORDER BY e.seq DESC LIMIT 1",
            (order_id,),
        )
        row = await cur.fetchone()
    assert row is not None, "a processed order of the reference data is tracked"
    return dict(row)


async def test_tracking_states_the_eta_date_and_the_carriers_last_scan(support: Support) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", count=1, skip=5)
    scan = await _last_scan(support, order)
    en = await _run(support, user, f"where is my package for {order}?")
    tracking_id = scan["tracking_id"]
    assert f"Shipment {tracking_id}: {scan['description']} at {scan['location']} on " in en.answer
    assert f"(carrier {scan['carrier']})" in en.answer
    assert f"Shipment {tracking_id}: estimated delivery " in en.answer, en.answer
    zh = await _run(support, user, f"订单{order}的快递到哪儿了？什么时候能到")
    assert f"包裹 {tracking_id}：{scan['description']}（{scan['location']}，" in zh.answer
    assert f"承运商 {scan['carrier']}）" in zh.answer
    assert f"包裹 {tracking_id} 预计 " in zh.answer and " 送达" in zh.answer, zh.answer
    # When the scan was: its date and time, as the carrier reported it.
    assert re.search(r" on \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(carrier ", en.answer), en.answer
