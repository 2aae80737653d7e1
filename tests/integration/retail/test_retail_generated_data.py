"""Reference data and synthesised tracking on a real database."""

from __future__ import annotations

from pathlib import Path

import psycopg
from psycopg.rows import DictRow

from domains.retail.storage import (
    TRACKING_AS_OF,
    canonical_hash,
    export_canonical,
    fetch_tracking,
    generate_reference,
    load_tau2,
    synthesize_tracking,
    table_counts,
)

Conn = psycopg.AsyncConnection[DictRow]


async def _tracking_rows(conn: Conn) -> list[DictRow]:
    cur = await conn.execute(
        "SELECT s.*, e.seq, e.occurred_at, e.location, e.event_code, e.description"
        " FROM shipments s JOIN tracking_events e USING (tracking_id)"
        " ORDER BY s.tracking_id, e.seq"
    )
    return await cur.fetchall()


async def test_same_seed_same_hash_and_same_tracking(conn: Conn) -> None:
    first = await generate_reference(conn, seed=11)
    exported_hash = canonical_hash(await export_canonical(conn))
    tracking = await _tracking_rows(conn)
    second = await generate_reference(conn, seed=11)
    assert first.hash == second.hash == exported_hash
    assert canonical_hash(await export_canonical(conn)) == exported_hash
    assert await _tracking_rows(conn) == tracking
    assert (first.users, first.orders, first.products) == (500, 1000, 50)


async def test_every_status_present_and_some_shipments_delayed(conn: Conn) -> None:
    await generate_reference(conn)
    cur = await conn.execute("SELECT DISTINCT status FROM orders")
    assert len(await cur.fetchall()) == 7
    cur = await conn.execute(
        "SELECT tracking_id, promised_delivery_date FROM shipments WHERE status = 'delayed'"
    )
    delayed = await cur.fetchall()
    assert delayed
    assert all(r["promised_delivery_date"] < TRACKING_AS_OF.date() for r in delayed)
    cur = await conn.execute("SELECT DISTINCT source FROM payment_methods")
    assert {r["source"] for r in await cur.fetchall()} == {"credit_card", "paypal", "gift_card"}


async def test_shipments_agree_with_order_status(conn: Conn) -> None:
    await generate_reference(conn)
    cur = await conn.execute(
        "SELECT o.status AS order_status, s.status AS shipment_status, count(*) AS n"
        " FROM orders o JOIN fulfillment_tracking_ids t USING (order_id)"
        " JOIN shipments s USING (tracking_id) GROUP BY 1, 2"
    )
    pairs = {(r["order_status"], r["shipment_status"]) for r in await cur.fetchall()}
    for order_status, shipment_status in pairs:
        if order_status in ("delivered", "return requested", "exchange requested"):
            assert shipment_status == "delivered"
        elif order_status == "processed":
            assert shipment_status in ("in_transit", "out_for_delivery", "delayed")
    assert not any(o.startswith("pending") for o, _ in pairs)
    counts = await table_counts(conn)
    assert counts["shipments"] == len({r["tracking_id"] for r in await _tracking_rows(conn)})


async def test_tracking_is_regenerated_identically_and_never_touches_the_hash(
    conn: Conn, mini_path: Path
) -> None:
    await load_tau2(conn, mini_path)
    before_hash = canonical_hash(await export_canonical(conn))
    shipment = await fetch_tracking(conn, "900000000002")
    assert shipment is not None and shipment["status"] in (
        "in_transit",
        "out_for_delivery",
        "delayed",
    )
    assert [e["seq"] for e in shipment["events"]] == list(range(len(shipment["events"])))
    assert shipment["events"][0]["event_code"] == "label_created"
    assert shipment["destination"] == "Tulsa, OK"
    assert await synthesize_tracking(conn) == 0  # every tracking id already has a history
    await conn.execute("DELETE FROM shipments WHERE tracking_id = '900000000002'")
    assert await synthesize_tracking(conn) == 1
    assert await fetch_tracking(conn, "900000000002") == shipment
    assert canonical_hash(await export_canonical(conn)) == before_hash
    delivered = await fetch_tracking(conn, "900000000001")
    assert delivered is not None and delivered["events"][-1]["event_code"] == "delivered"
    assert await fetch_tracking(conn, "000000000000") is None
