"""Shipments and tracking events in the database: fill the gaps, read one back.

These tables are the carrier's view and sit outside the tau2 document, so
nothing here changes the export or its hash.
"""

from __future__ import annotations

from datetime import datetime

import psycopg
from psycopg.rows import DictRow

from domains.retail.storage.records import JsonDict
from domains.retail.storage.sqlio import copy_rows
from domains.retail.storage.tracking import EST, TRACKING_AS_OF, synthesize_shipment

_UNTRACKED = """
SELECT DISTINCT ON (t.tracking_id) t.tracking_id, o.status, o.city, o.state
FROM fulfillment_tracking_ids t JOIN orders o USING (order_id)
WHERE NOT EXISTS (SELECT 1 FROM shipments s WHERE s.tracking_id = t.tracking_id)
ORDER BY t.tracking_id, o.order_id
"""


async def synthesize_tracking(
    conn: psycopg.AsyncConnection[DictRow], *, as_of: datetime = TRACKING_AS_OF
) -> int:
    """Give every tracking id without a shipment a synthesised history; return how many."""
    cur = await conn.execute(_UNTRACKED)
    shipments = [
        synthesize_shipment(
            r["tracking_id"], r["status"], f"{r['city']}, {r['state']}", as_of=as_of
        )
        for r in await cur.fetchall()
    ]
    shipment_rows = [
        (
            s.tracking_id,
            s.carrier,
            s.origin,
            s.destination,
            s.promised_delivery_date,
            s.status,
        )
        for s in shipments
    ]
    event_rows = [
        (s.tracking_id, e.seq, e.occurred_at, e.location, e.event_code, e.description)
        for s in shipments
        for e in s.events
    ]
    await copy_rows(conn, "shipments", shipment_rows)
    await copy_rows(conn, "tracking_events", event_rows)
    return len(shipments)


async def fetch_tracking(
    conn: psycopg.AsyncConnection[DictRow], tracking_id: str
) -> JsonDict | None:
    """A shipment with its events oldest first (times in EST, ISO 8601), or None."""
    cur = await conn.execute("SELECT * FROM shipments WHERE tracking_id = %s", (tracking_id,))
    shipment = await cur.fetchone()
    if shipment is None:
        return None
    cur = await conn.execute(
        "SELECT seq, occurred_at, location, event_code, description"
        " FROM tracking_events WHERE tracking_id = %s ORDER BY seq",
        (tracking_id,),
    )
    events = [
        {**e, "occurred_at": e["occurred_at"].astimezone(EST).isoformat()}
        for e in await cur.fetchall()
    ]
    return {
        "tracking_id": shipment["tracking_id"],
        "carrier": shipment["carrier"],
        "origin": shipment["origin"],
        "destination": shipment["destination"],
        "promised_delivery_date": shipment["promised_delivery_date"].isoformat(),
        "status": shipment["status"],
        "events": events,
    }


async def tracking_owners(conn: psycopg.AsyncConnection[DictRow], tracking_id: str) -> set[str]:
    """The user ids whose orders ship under `tracking_id` (normally one)."""
    cur = await conn.execute(
        "SELECT DISTINCT o.user_id FROM fulfillment_tracking_ids t"
        " JOIN orders o USING (order_id) WHERE t.tracking_id = %s",
        (tracking_id,),
    )
    return {row["user_id"] for row in await cur.fetchall()}
