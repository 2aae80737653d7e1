"""Operators are told a request is waiting: an e-mail through the outbox and a
signed webhook, once per request however often the approval node re-runs."""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from langgraph.types import Command

from checkpoints import outbox
from graphs.api import RunReport, resume_thread
from nodes.approval import record_requests
from nodes.contracts import ApprovalRequest
from nodes.identity import AUTH_USER_KEY, Identity
from skills.outbox.operator_settings import OperatorNotices
from skills.outbox.settings import DeliverySettings
from skills.outbox.webhook import signature
from skills.outbox.worker import background_worker, deliver_due
from tests.http_servers import Receiver, receiving
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders
from tests.integration.outbox.outbox_rows import settle_all
from tests.smtp_servers import Inbox, serving
from tests.support_fixtures import Support, run_confirmed

OPS = ("ops@example.test", "oncall@example.test")
INBOX_URL = "https://inbox.example.test/rolegraph"
SECRET = "webhook-test-secret"


@pytest_asyncio.fixture(loop_scope="module")
async def settled(support: Support) -> AsyncIterator[Support]:
    """The support graph; rows this test leaves unsent are not the next test's."""
    await settle_all(support.db)
    yield support
    await settle_all(support.db)


def told(support: Support, webhook: str | None = None) -> Any:
    notices = OperatorNotices(recipients=OPS, webhook_url=webhook, inbox_url=INBOX_URL)
    return dataclasses.replace(support.ctx, operator_notices=notices)


async def cancel_waiting(support: Support, ctx: Any, skip: int) -> tuple[RunReport, str]:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=skip)
    first = await run_confirmed(
        support.graph, ctx, text=f"please cancel {order}, ordered by mistake", user_id=user
    )
    assert first.status == "interrupted" and first.interrupts[0]["kind"] == "approval"
    return first, order


async def operator_rows(support: Support, thread_id: str) -> list[dict[str, Any]]:
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT n.channel, n.recipient, n.status, n.attempts FROM notifications n"
            " JOIN approvals a ON n.idempotency_key LIKE 'operator:' || a.request_id || ':%%'"
            " WHERE a.thread_id = %s ORDER BY n.id",
            (thread_id,),
        )
        return list(await cur.fetchall())


async def test_operators_get_one_email_with_the_link_however_often_the_node_reruns(
    settled: Support,
) -> None:
    ctx = told(settled)
    first, order = await cancel_waiting(settled, ctx, skip=20)
    request = first.interrupts[0]
    inbox = Inbox()
    with serving(inbox) as smtp:
        counts = await deliver_due(settled.db.pool, DeliverySettings.from_env(smtp))
    assert counts.sent == 2
    assert sorted(str(m["To"]) for m in inbox.messages) == sorted(OPS)
    mail = inbox.messages[0]
    assert request["skill"] in str(mail["Subject"]) and first.thread_id in str(mail["Subject"])
    text = mail.get_payload(decode=True).decode()
    assert f"{INBOX_URL}/requests/{request['id']}" in text
    assert f"Customer:  {first.user_id}" in text and f'"{order}"' in text
    assert "ordered by mistake" in text and f"Risk:      {request['risk']}" in text

    # A customer's resume re-runs the node (refused, asked again); the operator's
    # approval re-runs it once more. Neither queues the notice again.
    customer = Identity("customer", first.user_id or "")
    config = {
        "configurable": {"thread_id": first.thread_id, AUTH_USER_KEY: customer.as_auth_user()}
    }
    await settled.graph.ainvoke(
        Command(resume={request["id"]: {"decision": "approve"}}), config, context=ctx
    )
    done = await resume_thread(
        settled.graph, ctx, first.thread_id, decision="approve", actor=OPERATOR
    )
    assert done.status == "completed" and await order_status(settled.db.pool, order) == "cancelled"
    pending = [ApprovalRequest.model_validate({**request, "audit_id": first.audit_id})]
    await record_requests(
        settled.db.pool, first.thread_id, pending, first.user_id, ctx.operator_notices
    )
    with serving(inbox) as smtp:
        again = await deliver_due(settled.db.pool, DeliverySettings.from_env(smtp))
    assert again.claimed == 0 and len(inbox.messages) == 2
    rows = await operator_rows(settled, first.thread_id)
    assert [(r["channel"], r["status"]) for r in rows] == [("email", "sent")] * 2
    # Once retention pruned the sent rows, a re-run still queues nothing: the
    # request row itself says it was announced.
    async with settled.db.pool.connection() as conn:
        await conn.execute("DELETE FROM notifications WHERE idempotency_key LIKE 'operator:%%'")
    await record_requests(
        settled.db.pool, first.thread_id, pending, first.user_id, ctx.operator_notices
    )
    assert await operator_rows(settled, first.thread_id) == []


async def test_the_webhook_receives_a_signed_body_without_the_arguments(settled: Support) -> None:
    receiver = Receiver()
    with receiving(receiver) as url:
        first, order = await cancel_waiting(settled, told(settled, webhook=url), skip=21)
        env = {"ROLEGRAPH_APPROVAL_WEBHOOK": url, "ROLEGRAPH_APPROVAL_WEBHOOK_SECRET": SECRET}
        counts = await deliver_due(settled.db.pool, DeliverySettings.from_env(env))
    # Without SMTP_HOST the worker delivers the webhook and leaves the e-mails queued.
    assert counts.sent == 1 and len(receiver.received) == 1
    post = receiver.received[0]
    assert post.path == "/hooks/rolegraph"
    assert hmac.compare_digest(post.headers["X-Rolegraph-Signature"], signature(SECRET, post.body))
    assert post.headers["X-Rolegraph-Signature"] != signature("someone else", post.body)
    body = json.loads(post.body)
    request = first.interrupts[0]
    assert body == {
        "event": "rolegraph.request.waiting",
        "request_id": request["id"],
        "thread_id": first.thread_id,
        "kind": "approval",
        "skill": request["skill"],
        "risk": request["risk"],
        "customer_id": first.user_id,
        "link": f"{INBOX_URL}/requests/{request['id']}",
    }
    assert order not in post.body.decode() and "mistake" not in post.body.decode()
    rows = await operator_rows(settled, first.thread_id)
    assert [(r["channel"], r["status"]) for r in rows] == [
        ("email", "pending"), ("email", "pending"), ("webhook", "sent"),
    ]  # fmt: skip


async def test_a_webhook_answering_500_is_retried_later(settled: Support) -> None:
    receiver = Receiver(statuses=[500, 200])
    with receiving(receiver) as url:
        first, _ = await cancel_waiting(settled, told(settled, webhook=url), skip=22)
        settings = DeliverySettings.from_env({"ROLEGRAPH_APPROVAL_WEBHOOK": url})
        failed = await deliver_due(settled.db.pool, settings)
        assert failed.retrying == 1 and len(receiver.received) == 1
        async with settled.db.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT status, attempts, last_error, next_attempt_at > now() AS later"
                " FROM notifications WHERE channel = 'webhook' AND recipient = %s",
                (url,),
            )
            assert await cur.fetchall() == [
                {"status": "pending", "attempts": 1, "last_error": "the webhook answered HTTP 500",
                 "later": True},
            ]  # fmt: skip
            # Not due yet: the next pass leaves it alone. Then its backoff has passed.
            assert (await deliver_due(settled.db.pool, settings)).claimed == 0
            await conn.execute(
                "UPDATE notifications SET next_attempt_at = now() WHERE recipient = %s", (url,)
            )
        retried = await deliver_due(settled.db.pool, settings)
    assert retried.sent == 1 and len(receiver.received) == 2
    assert receiver.received[0].body == receiver.received[1].body
    delivery = {r.headers["X-Rolegraph-Delivery"] for r in receiver.received}
    assert len(delivery) == 1  # the same delivery id on every attempt
    assert "X-Rolegraph-Signature" not in receiver.received[0].headers  # no secret, no signature
    rows = await operator_rows(settled, first.thread_id)
    assert rows[-1]["status"] == "sent" and rows[-1]["attempts"] == 2


async def test_without_operator_addresses_nothing_is_sent(settled: Support) -> None:
    assert settled.ctx.operator_notices == OperatorNotices()  # the fixture's env is empty
    first, _ = await cancel_waiting(settled, settled.ctx, skip=23)
    assert await operator_rows(settled, first.thread_id) == []
    inbox = Inbox()
    with serving(inbox) as smtp:
        counts = await deliver_due(settled.db.pool, DeliverySettings.from_env(smtp))
    assert counts.claimed == 0 and inbox.messages == []


@pytest.mark.parametrize(
    ("n", "risky"), [(1, "ordered\r\nBcc: victim@example.test"), (2, "x\nSubject: hi")]
)
async def test_untrusted_text_cannot_add_a_header(settled: Support, n: int, risky: str) -> None:
    notices = OperatorNotices(recipients=OPS[:1], inbox_url=INBOX_URL)
    request = ApprovalRequest(
        id=f"apr-inject-{n}", kind="escalation", reason=risky,
        args={"note": risky}, audit_id="audit-inject",
    )  # fmt: skip
    await record_requests(settled.db.pool, f"thread\r\nBcc: {risky}", [request], "u1", notices)
    inbox = Inbox()
    with serving(inbox) as smtp:
        counts = await deliver_due(settled.db.pool, DeliverySettings.from_env(smtp))
    assert counts.sent == 1
    [mail] = inbox.messages
    assert mail["Bcc"] is None and len(mail.get_all("Subject") or []) == 1
    assert [str(v) for v in mail.get_all("To") or []] == [OPS[0]]


async def test_the_background_worker_runs_for_a_webhook_alone(settled: Support) -> None:
    receiver = Receiver()
    with receiving(receiver) as url:
        env = {"ROLEGRAPH_APPROVAL_WEBHOOK": url, "NOTIFY_WORKER_INTERVAL": "0.05"}
        async with background_worker(settled.db.pool, env) as task:
            assert task is not None
            async with settled.db.pool.connection() as conn:
                await outbox.enqueue(
                    conn, user_id="u1", recipient=url, subject="approval waiting",
                    body='{"request_id":"apr-bg"}', key="test-bg-webhook", channel="webhook",
                )  # fmt: skip
            for _ in range(400):
                if receiver.received:
                    break
                await asyncio.sleep(0.05)
    assert [r.body for r in receiver.received] == [b'{"request_id":"apr-bg"}']
