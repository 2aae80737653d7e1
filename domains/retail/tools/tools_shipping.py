"""Shipment tools: tracking history, ETA and delay detection from the carrier tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domains.retail.storage import reads
from domains.retail.storage.tracking_store import fetch_tracking, tracking_owners
from domains.retail.tools.executors import ensure_owner
from domains.retail.tools.shipping import DEFAULT_STALL_HOURS, detect_delay, estimate_arrival
from skills.contract import SkillContext
from skills.errors import RecordNotFound


async def track_shipment(conn: Any, args: dict[str, Any], ctx: SkillContext) -> dict[str, Any]:
    """Every scan of the shipment(s), oldest first."""
    return _answer(args, await _shipments(conn, args, ctx))


async def calculate_eta(conn: Any, args: dict[str, Any], ctx: SkillContext) -> dict[str, Any]:
    """Estimated arrival per shipment, against its promised date."""
    now = _now(args, ctx)
    shipments = await _shipments(conn, args, ctx)
    return _answer(args, [estimate_arrival(s, now) for s in shipments])


async def detect_delay_pattern(
    conn: Any, args: dict[str, Any], ctx: SkillContext
) -> dict[str, Any]:
    """A delay verdict per shipment with confidence and evidence."""
    now = _now(args, ctx)
    stall = float(args.get("stall_hours", DEFAULT_STALL_HOURS))
    shipments = await _shipments(conn, args, ctx)
    return _answer(args, [detect_delay(s, now, stall) for s in shipments])


async def _shipments(conn: Any, args: dict[str, Any], ctx: SkillContext) -> list[dict[str, Any]]:
    if "order_id" in args:
        order = await reads.fetch_order(conn, args["order_id"])
        if order is None:
            raise RecordNotFound("Order not found")
        ensure_owner(ctx, order["user_id"], "order")
        ids = [t for f in order["fulfillments"] for t in f["tracking_id"]]
    else:
        ids = [args["tracking_id"]]
        if ctx.user_id is not None:
            owners = await tracking_owners(conn, args["tracking_id"])
            if owners != {ctx.user_id}:
                ensure_owner(ctx, next(iter(owners), ""), "shipment")
    found = [s for s in [await fetch_tracking(conn, t) for t in ids] if s is not None]
    if "tracking_id" in args and not found:
        raise RecordNotFound("Shipment not found")
    return found


def _answer(args: dict[str, Any], shipments: list[dict[str, Any]]) -> dict[str, Any]:
    key = "order_id" if "order_id" in args else "tracking_id"
    return {key: args[key], "shipments": shipments}


def _now(args: dict[str, Any], ctx: SkillContext) -> datetime:
    return datetime.fromisoformat(args["as_of"]) if "as_of" in args else ctx.now()
