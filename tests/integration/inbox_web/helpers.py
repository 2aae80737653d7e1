"""What the inbox tests share: tokens, a pending cancel, a logged-in client."""

from __future__ import annotations

import re
from typing import Any

import httpx

from checkpoints.tokens import Conn, TokenKind, issue_token
from graphs.api import RunReport
from tests.integration.graph.helpers import user_with_orders
from tests.support_fixtures import Support, run_confirmed

_CSRF = re.compile(r'name="csrf" value="([0-9a-f]{64})"')


async def token(support: Support, kind: TokenKind, subject: str) -> str:
    """A fresh token's secret, as `rolegraph tokens issue` prints it."""

    async def exists(_conn: Conn, user_id: str) -> bool:
        return await support.ctx.domain.records.customer_exists(support.db.pool, user_id)

    async with support.db.pool.connection() as conn:
        issued = await issue_token(conn, kind, subject, customer_exists=exists)
    return issued.secret


async def pending_cancel(
    support: Support, skip: int, reason: str = "ordered by mistake"
) -> tuple[str, str, RunReport]:
    """A customer's confirmed cancel of a pending order, waiting for an operator:
    (customer, order id, the turn's report)."""
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=skip)
    first = await run_confirmed(
        support.graph, support.ctx, text=f"please cancel {order}, {reason}", user_id=user
    )
    assert first.status == "interrupted", first
    assert first.interrupts[0]["skill"] == "cancel_pending_order_v1"
    return user, order, first


async def log_in(client: httpx.AsyncClient, secret: str) -> str:
    """Log `client` in with an operator token; the CSRF value of its pages."""
    response = await client.post("/login", data={"token": secret, "next": "/"})
    assert response.status_code == 303, response.text
    return csrf_of((await client.get("/")).text)


def csrf_of(html: str) -> str:
    match = _CSRF.search(html)
    assert match, "no CSRF field on the page"
    return match.group(1)


def decision_form(csrf: str, decision: str, **fields: Any) -> dict[str, str]:
    return {"csrf": csrf, "decision": decision, **{k: str(v) for k, v in fields.items()}}
