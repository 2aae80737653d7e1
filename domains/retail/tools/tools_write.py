"""The tau2 write tools against the database: lock, apply the pure operation, store.

Every tool runs inside the executor's transaction. Rows are locked in one
order (order, then its user) so two concurrent writers cannot deadlock, and a
failed check raises before anything is stored, leaving the database unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domains.retail.storage import reads, writes
from domains.retail.storage.records import read_products
from domains.retail.tools import order_ops
from domains.retail.tools.documents import OrderDoc, ProductDoc, UserDoc
from domains.retail.tools.executors import ensure_owner
from domains.retail.tools.order_ops import Change, Swap
from skills.contract import SkillContext
from skills.errors import RecordNotFound

OrderOp = Callable[[OrderDoc, UserDoc, Mapping[str, ProductDoc], dict[str, Any]], Change]
SwapOp = Callable[[OrderDoc, UserDoc, Mapping[str, ProductDoc], Swap, str], Change]


async def cancel_pending_order(conn: Any, args: dict[str, Any], ctx: SkillContext) -> Any:
    return await _change_order(
        conn, args, ctx, lambda o, u, p, a: order_ops.cancel_pending_order(o, u, a["reason"])
    )


async def modify_pending_order_address(conn: Any, args: dict[str, Any], ctx: SkillContext) -> Any:
    return await _change_order(
        conn, args, ctx, lambda o, u, p, a: order_ops.modify_pending_order_address(o, a)
    )


async def modify_pending_order_payment(conn: Any, args: dict[str, Any], ctx: SkillContext) -> Any:
    return await _change_order(
        conn,
        args,
        ctx,
        lambda o, u, p, a: order_ops.modify_pending_order_payment(o, u, a["payment_method_id"]),
    )


async def modify_pending_order_items(conn: Any, args: dict[str, Any], ctx: SkillContext) -> Any:
    return await _swap_items(conn, args, ctx, order_ops.modify_pending_order_items)


async def exchange_delivered_order_items(conn: Any, args: dict[str, Any], ctx: SkillContext) -> Any:
    return await _swap_items(conn, args, ctx, order_ops.exchange_delivered_order_items)


async def return_delivered_order_items(conn: Any, args: dict[str, Any], ctx: SkillContext) -> Any:
    return await _change_order(
        conn,
        args,
        ctx,
        lambda o, u, p, a: order_ops.return_delivered_order_items(
            o, u, a["item_ids"], a["payment_method_id"]
        ),
    )


async def modify_user_address(conn: Any, args: dict[str, Any], ctx: SkillContext) -> Any:
    ensure_owner(ctx, args["user_id"], "user")
    user = await reads.fetch_user(conn, args["user_id"], for_update=True)
    if user is None:
        raise RecordNotFound("User not found")
    change = order_ops.modify_user_address(user, args)
    await writes.store_user(conn, change.user or user)
    return change.user


async def _swap_items(
    conn: Any, args: dict[str, Any], ctx: SkillContext, operation: SwapOp
) -> OrderDoc:
    # Swaps price the new variants, so the order's products are loaded too.
    return await _change_order(
        conn,
        args,
        ctx,
        lambda o, u, p, a: operation(
            o, u, p, (a["item_ids"], a["new_item_ids"]), a["payment_method_id"]
        ),
        with_products=True,
    )


async def _change_order(
    conn: Any,
    args: dict[str, Any],
    ctx: SkillContext,
    operation: OrderOp,
    *,
    with_products: bool = False,
) -> OrderDoc:
    order = await reads.fetch_order(conn, args["order_id"], for_update=True)
    if order is None:
        raise RecordNotFound("Order not found")
    ensure_owner(ctx, order["user_id"], "order")
    user = await reads.fetch_user(conn, order["user_id"], for_update=True)
    if user is None:
        raise RecordNotFound("User not found")
    products: dict[str, ProductDoc] = {}
    if with_products:
        products = await read_products(conn, sorted({i["product_id"] for i in order["items"]}))
    change = operation(order, user, products, args)
    if change.user is not None and change.user != user:
        await writes.store_user(conn, change.user)
    assert change.order is not None  # every order operation returns the order
    await writes.store_order(conn, change.order)
    return change.order
