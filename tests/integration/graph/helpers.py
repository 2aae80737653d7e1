"""Queries that pick test subjects out of the generated reference data."""

from __future__ import annotations

import dataclasses
from typing import Any

from checkpoints.audit import CUSTOMER_CONFIRMED, AuditEvent, record_event
from nodes.identity import Identity
from skills.context import RuntimeContext
from skills.hashing import args_hash
from skills.registry import SkillRegistry
from skills.runtime import SkillRuntime


async def user_with_orders(
    pool: Any, status: str, count: int = 1, skip: int = 0
) -> tuple[str, list[str]]:
    """A user owning at least `count` orders in `status`, and those order ids."""
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT user_id, array_agg(order_id ORDER BY order_id) AS ids FROM orders"
            " WHERE status = %s GROUP BY user_id HAVING count(*) >= %s ORDER BY user_id OFFSET %s LIMIT 1",
            (status, count, skip),
        )
        row = await cur.fetchone()
    assert row is not None, f"no user with {count} {status} orders in the reference data"
    return row["user_id"], list(row["ids"])[:count]


async def order_status(pool: Any, order_id: str) -> str:
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT status FROM orders WHERE order_id = %s", (order_id,))
        row = await cur.fetchone()
    assert row is not None
    return str(row["status"])


async def audit_rows(pool: Any, audit_id: str, skill: str) -> list[dict[str, Any]]:
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT status, approval_id, step FROM audit_events WHERE audit_id = %s AND skill = %s ORDER BY id",
            (audit_id, skill),
        )
        return list(await cur.fetchall())


async def _no_sleep(seconds: float) -> None:
    return None


def with_executor(support: Any, skill_id: str, executor: Any) -> Any:
    """The support context with one skill's executor replaced (and no backoff
    sleeps), for driving failures through the real runtime and graph."""
    skills = list(support.ctx.registry)
    registry = SkillRegistry(
        dataclasses.replace(s, executor=executor) if s.skill_id == skill_id else s for s in skills
    )
    runtime = SkillRuntime(
        registry, support.ctx.roles, RuntimeContext(pool=support.db.pool), sleep=_no_sleep
    )
    return dataclasses.replace(support.ctx, skills=runtime, registry=registry)


OPERATOR = Identity("operator", "test-operator")
"""The operator who answers approvals in these tests."""


async def confirmed_by_customer(pool: Any, audit_id: str, skill: str, args: dict[str, Any]) -> None:
    """The audit row intake writes when the customer answers a confirmation with yes."""
    event = AuditEvent(
        audit_id=audit_id, status=CUSTOMER_CONFIRMED, skill=skill, args_hash=args_hash(args)
    )
    async with pool.connection() as conn:
        await record_event(conn, event)
