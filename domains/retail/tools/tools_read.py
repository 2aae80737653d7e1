"""The tau2 read tools against the database, with the session's ownership filter."""

from __future__ import annotations

from typing import Any

from domains.retail.storage import reads
from domains.retail.tools.executors import ensure_owner
from domains.retail.tools.lookups import product_types_json
from skills.contract import SkillContext
from skills.errors import RecordNotFound


async def find_user_id_by_email(conn: Any, args: dict[str, Any], ctx: SkillContext) -> str:
    user_id = await reads.find_user_id_by_email(conn, args["email"])
    return _own_user_id(user_id, ctx)


async def find_user_id_by_name_zip(conn: Any, args: dict[str, Any], ctx: SkillContext) -> str:
    user_id = await reads.find_user_id_by_name_zip(
        conn, args["first_name"], args["last_name"], args["zip"]
    )
    return _own_user_id(user_id, ctx)


async def get_user_details(conn: Any, args: dict[str, Any], ctx: SkillContext) -> Any:
    # Checked before the read, so another customer's id reveals nothing, not even existence.
    ensure_owner(ctx, args["user_id"], "user")
    return _found(await reads.fetch_user(conn, args["user_id"]), "User not found")


async def get_order_details(conn: Any, args: dict[str, Any], ctx: SkillContext) -> Any:
    order = _found(await reads.fetch_order(conn, args["order_id"]), "Order not found")
    ensure_owner(ctx, order["user_id"], "order")
    return order


async def get_product_details(conn: Any, args: dict[str, Any], ctx: SkillContext) -> Any:
    return _found(await reads.fetch_product(conn, args["product_id"]), "Product not found")


async def get_item_details(conn: Any, args: dict[str, Any], ctx: SkillContext) -> Any:
    return _found(await reads.fetch_variant(conn, args["item_id"]), "Item not found")


async def list_all_product_types(conn: Any, args: dict[str, Any], ctx: SkillContext) -> str:
    return product_types_json(await reads.list_product_types(conn))


def _own_user_id(user_id: str | None, ctx: SkillContext) -> str:
    """A found id; in a customer session only the customer's own."""
    found: str = _found(user_id, "User not found")
    ensure_owner(ctx, found, "user")
    return found


def _found(record: Any, message: str) -> Any:
    if record is None:
        raise RecordNotFound(message)
    return record
