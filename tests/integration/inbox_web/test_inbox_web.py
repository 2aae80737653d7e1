"""The web approval inbox over HTTP: who gets in, CSRF, edits checked before they are sent,
decisions that run as the logged-in operator (issue 13 §2)."""

from __future__ import annotations

import html
import socket
from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio
from starlette.applications import Starlette

from checkpoints.tokens import revoke_token
from graphs.api import report
from graphs.inbox_web.app import create_app
from graphs.inbox_web.views import InboxBackend
from tests.cli import run_cli
from tests.integration.graph.helpers import order_status, user_with_orders
from tests.integration.inbox_web.helpers import (
    csrf_of,
    decision_form,
    log_in,
    pending_cancel,
    token,
)
from tests.support_fixtures import Support, run_confirmed


@pytest.fixture(scope="module")
def app(support: Support) -> Starlette:
    return create_app(InboxBackend(graph=support.graph, ctx=support.ctx))


@pytest_asyncio.fixture(loop_scope="module")
async def client(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://inbox.test") as c:
        yield c


async def test_nobody_gets_in_without_a_live_operator_token(
    support: Support, client: httpx.AsyncClient
) -> None:
    anonymous = await client.get("/requests/apr-1?x=1")
    assert anonymous.status_code == 303
    assert anonymous.headers["location"] == "/login?next=/requests/apr-1%3Fx%3D1"
    api = await client.get("/api/pending")
    assert api.status_code == 401 and "log in" in api.json()["error"]

    unknown = await client.post("/login", data={"token": "rgtok.0123456789ab." + "x" * 43})
    assert unknown.status_code == 401 and "unknown or revoked" in unknown.text
    user, _ = await user_with_orders(support.db.pool, "pending", skip=20)
    customer = await client.post("/login", data={"token": await token(support, "customer", user)})
    assert customer.status_code == 403
    assert "a customer token cannot open the approval inbox" in customer.text
    assert "rolegraph_inbox" not in client.cookies

    secret = await token(support, "operator", "olga")
    ok = await client.post("/login", data={"token": secret, "next": "//evil.example/"})
    assert ok.status_code == 303 and ok.headers["location"] == "/"  # never off-site
    cookie = ok.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert (await client.get("/")).status_code == 200
    # Every request re-verifies the token: once revoked, the cookie opens nothing.
    async with support.db.pool.connection() as conn:
        await revoke_token(conn, secret)
    revoked = await client.get("/")
    assert revoked.status_code == 401 and "unknown or revoked" in revoked.text
    assert (await client.get("/api/pending")).status_code == 401


async def test_a_post_without_this_sessions_csrf_value_changes_nothing(
    support: Support, client: httpx.AsyncClient
) -> None:
    _, order, first = await pending_cancel(support, skip=21)
    request_id = first.interrupts[0]["id"]
    csrf = await log_in(client, await token(support, "operator", "omar"))
    for sent in ({}, {"csrf": "0" * 64}, {"csrf": csrf[:-1] + "x"}):
        refused = await client.post(
            f"/requests/{request_id}/decide", data={**sent, "decision": "approve"}
        )
        assert refused.status_code == 403 and "reload and try again" in refused.text
    # Another session's value does not fit this one either.
    async with httpx.AsyncClient(
        transport=client._transport, base_url="http://inbox.test"
    ) as other:
        theirs = await log_in(other, await token(support, "operator", "otto"))
    refused = await client.post(
        f"/requests/{request_id}/decide", data=decision_form(theirs, "approve")
    )
    assert refused.status_code == 403
    assert await order_status(support.db.pool, order) == "pending"
    assert (await report(support.graph, first.thread_id)).interrupts[0]["id"] == request_id


async def test_a_bad_edit_is_refused_with_one_line_and_changes_nothing(
    support: Support, client: httpx.AsyncClient
) -> None:
    _, order, first = await pending_cancel(support, skip=22)
    request_id = first.interrupts[0]["id"]
    csrf = await log_in(client, await token(support, "operator", "oona"))
    bad = await client.post(
        f"/requests/{request_id}/decide",
        data=decision_form(csrf, "edit", **{"arg:order_id": order, "arg:reason": "because"}),
    )
    assert bad.status_code == 400
    assert "the edited arguments are not valid for cancel_pending_order_v1" in bad.text
    assert 'data-request-id="' + request_id + '"' in bad.text  # still there to decide
    # The record the call acts on cannot be changed through the form.
    moved = await client.post(
        f"/requests/{request_id}/decide",
        data=decision_form(csrf, "edit", **{"arg:order_id": "#W0000000", "arg:reason": ""}),
    )
    assert moved.status_code == 400 and "not valid for cancel_pending_order_v1" in moved.text
    assert await order_status(support.db.pool, order) == "pending"
    still = await report(support.graph, first.thread_id)
    assert still.status == "interrupted" and still.interrupts[0]["id"] == request_id


async def test_an_approved_cancel_runs_as_the_operator_and_leaves_the_inbox(
    support: Support, client: httpx.AsyncClient
) -> None:
    user, order, first = await pending_cancel(support, skip=23)
    request_id = first.interrupts[0]["id"]
    csrf = await log_in(client, await token(support, "operator", "oskar"))
    listed = await client.get("/")
    card = listed.text[listed.text.index(f'data-request-id="{request_id}"') :]
    for shown in (user, "cancel_pending_order_v1", "risk: high", order, "ordered by mistake"):
        assert shown in card
    assert f"please cancel {order}" in card  # the conversation so far
    assert request_id in (await client.get("/api/pending")).json()["requests"]

    edited = await client.post(
        f"/requests/{request_id}/decide",
        data=decision_form(
            csrf, "edit", **{"arg:order_id": order, "arg:reason": "no longer needed"}
        ),
    )
    assert edited.status_code == 303
    assert edited.headers["location"] == f"/threads/{first.thread_id}?decided={request_id}"
    thread = await client.get(edited.headers["location"])
    assert "completed" in thread.text and "cancelled" in thread.text
    assert await order_status(support.db.pool, order) == "cancelled"
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT decided_by, status FROM approvals WHERE request_id = %s", (request_id,)
        )
        assert (await cur.fetchone() or {})["decided_by"] == "operator:oskar"
        cur = await conn.execute("SELECT cancel_reason FROM orders WHERE order_id = %s", (order,))
        assert (await cur.fetchone() or {})["cancel_reason"] == "no longer needed"  # the edit
    assert request_id not in (await client.get("/api/pending")).json()["requests"]
    gone = await client.get(f"/requests/{request_id}")
    assert gone.status_code == 404 and "Already decided" in gone.text
    again = await client.post(f"/requests/{request_id}/decide", data=decision_form(csrf, "approve"))
    assert again.status_code == 409 and "Already decided" in again.text

    audit = await client.get(f"/audit/{first.audit_id}")
    assert audit.status_code == 200
    for status in ("customer_confirmed", "approval_required", "edited", "success"):
        assert f"<td>{status}</td>" in audit.text


async def test_an_operator_cannot_approve_their_own_request(
    support: Support, client: httpx.AsyncClient
) -> None:
    user, order, first = await pending_cancel(support, skip=24)
    request_id = first.interrupts[0]["id"]
    csrf = await log_in(client, await token(support, "operator", user))
    own = await client.post(f"/requests/{request_id}/decide", data=decision_form(csrf, "approve"))
    assert own.status_code == 400 and "cannot approve their own request" in own.text
    assert await order_status(support.db.pool, order) == "pending"


async def test_an_escalation_is_answered_with_a_reply(
    support: Support, client: httpx.AsyncClient
) -> None:
    user, _ = await user_with_orders(support.db.pool, "delivered", skip=5)
    first = await run_confirmed(support.graph, support.ctx, text="我要转人工客服", user_id=user)
    request_id = first.interrupts[0]["id"]
    csrf = await log_in(client, await token(support, "operator", "oliver"))
    page = await client.get(f"/requests/{request_id}")
    assert "escalation" in page.text and "我要转人工客服" in page.text
    empty = await client.post(f"/requests/{request_id}/decide", data=decision_form(csrf, "reply"))
    assert empty.status_code == 400 and "a reply needs a message" in empty.text
    approve = await client.post(
        f"/requests/{request_id}/decide", data=decision_form(csrf, "approve")
    )
    assert approve.status_code == 400 and "answered with reply" in approve.text
    sent = await client.post(
        f"/requests/{request_id}/decide",
        data=decision_form(csrf, "reply", message="We will call you today."),
    )
    assert sent.status_code == 303
    done = await report(support.graph, first.thread_id)
    assert done.status == "completed" and "We will call you today." in done.answer


async def test_customer_text_is_escaped_everywhere(
    support: Support, client: httpx.AsyncClient
) -> None:
    _, _, first = await pending_cancel(
        support, skip=25, reason="ordered by mistake <script>alert(1)</script>"
    )
    await log_in(client, await token(support, "operator", "opal"))
    page = await client.get(f"/requests/{first.interrupts[0]['id']}")
    assert page.status_code == 200
    assert "<script>alert(1)</script>" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert csrf_of(page.text)


async def test_unknown_threads_and_audit_ids_are_one_line_404s(
    support: Support, client: httpx.AsyncClient
) -> None:
    await log_in(client, await token(support, "operator", "orla"))
    thread = await client.get("/threads/thr-000000000000")
    assert thread.status_code == 404
    assert "no thread 'thr-000000000000'" in html.unescape(thread.text)
    audit = await client.get("/audit/aud-nope")
    assert audit.status_code == 404
    assert "no audit events for audit id 'aud-nope'" in html.unescape(audit.text)


async def test_behind_a_tls_proxy_the_cookie_travels_only_over_https(support: Support) -> None:
    app = create_app(InboxBackend(graph=support.graph, ctx=support.ctx), secure_cookies=True)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://inbox.test") as c:
        ok = await c.post("/login", data={"token": await token(support, "operator", "ozzy")})
    assert ok.status_code == 303 and "secure" in ok.headers["set-cookie"].lower()


async def test_a_plain_approve_runs_and_a_rejection_changes_nothing(
    support: Support, client: httpx.AsyncClient
) -> None:
    _, approved, first = await pending_cancel(support, skip=26)
    _, rejected, second = await pending_cancel(support, skip=27)
    csrf = await log_in(client, await token(support, "operator", "odile"))
    yes = await client.post(
        f"/requests/{first.interrupts[0]['id']}/decide", data=decision_form(csrf, "approve")
    )
    assert yes.status_code == 303
    assert await order_status(support.db.pool, approved) == "cancelled"
    no = await client.post(
        f"/requests/{second.interrupts[0]['id']}/decide",
        data=decision_form(csrf, "reject", message="please call the customer first"),
    )
    assert no.status_code == 303
    assert await order_status(support.db.pool, rejected) == "pending"
    done = await report(support.graph, second.thread_id)
    assert done.status == "completed" and "rejected" in done.answer


def test_serving_options_are_checked_before_anything_starts(db_env: dict[str, str]) -> None:
    alone = run_cli(db_env, "inbox", "--port", "9000")
    assert alone.returncode == 2 and "--host and --port need --serve" in alone.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        busy = run_cli(db_env, "inbox", "--serve", "--port", port)
    assert busy.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in busy.stderr and "Traceback" not in busy.stderr
