"""send_notification_v1 only enqueues: one outbox row, in the ledger's transaction.

A real SMTP server runs during these calls to prove the skill never talks to
it; delivery is the worker's (tests/integration/outbox).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from checkpoints import ledger, outbox
from checkpoints.opening import Database
from domains.retail.tools.notify import NotificationExecutor
from domains.retail.tools.replay import CATALOG
from skills.context import RuntimeContext
from skills.registry import load_catalog
from tests.smtp_servers import Inbox, serving

USER = "yusuf_rossi_9620"
EMAIL = "yusuf.rossi7301@example.com"


def _args(subject: str, **extra: Any) -> dict[str, Any]:
    return NotificationExecutor().validate_input(
        {"user_id": USER, "subject": subject, "body": "Your label is attached.", **extra}
    )


async def _send(ctx: RuntimeContext, args: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = await NotificationExecutor().execute(args, ctx)
    return result


async def _rows(db: Database, key: str) -> list[dict[str, Any]]:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT id, status, attempts, recipient, message_id FROM notifications"
            " WHERE idempotency_key = %s",
            (key,),
        )
        return list(await cur.fetchall())


async def _claimed_key(db: Database) -> str:
    key = "test-" + uuid.uuid4().hex
    async with db.pool.connection() as conn:
        await ledger.claim(
            conn, key=key, run_id="r", task_id="t", skill="send_notification_v1",
            args_hash="h", lease_seconds=60,
        )  # fmt: skip
    return key


async def test_enqueues_without_sending_and_says_queued(retail_db: Database) -> None:
    inbox = Inbox()
    key = await _claimed_key(retail_db)
    with serving(inbox) as smtp:
        ctx = RuntimeContext(pool=retail_db.pool, settings=smtp, idempotency_key=key)
        payload = await _send(ctx, _args("Your return label"))
    assert inbox.received == 0  # SMTP configured and up, yet the skill sent nothing
    assert payload["status"] == "queued" and payload["recipient"] == "y***@example.com"
    assert payload["message_id"] == outbox.message_id_for(key)
    [row] = await _rows(retail_db, key)
    assert row["id"] == payload["notification_id"]
    assert (row["status"], row["attempts"], row["recipient"]) == ("pending", 0, EMAIL)
    async with retail_db.pool.connection() as conn:
        entry = await ledger.get_entry(conn, key)
    assert entry is not None and entry.state == "succeeded" and entry.result == payload


async def test_the_row_commits_only_with_the_ledger_completion(retail_db: Database) -> None:
    class LedgerWriteFails(RuntimeContext):
        async def record_effect(self, conn: Any, payload: Any) -> None:
            raise RuntimeError("ledger write failed")

    key = await _claimed_key(retail_db)
    ctx = LedgerWriteFails(pool=retail_db.pool, idempotency_key=key)
    with pytest.raises(RuntimeError, match="ledger write failed"):
        await _send(ctx, _args("Never half-written"))
    assert await _rows(retail_db, key) == []


async def test_one_key_enqueues_once(retail_db: Database) -> None:
    ctx = RuntimeContext(pool=retail_db.pool)
    args = _args("Exchange confirmed")
    first, second = await _send(ctx, args), await _send(ctx, args)
    assert first == second
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM notifications WHERE subject = 'Exchange confirmed'"
        )
        assert (await cur.fetchone()) == {"n": 1}


async def test_rollback_withdraws_only_the_customers_own_unclaimed_row(
    retail_db: Database,
) -> None:
    executor, args = NotificationExecutor(), _args("Withdraw me")
    payload = await _send(RuntimeContext(pool=retail_db.pool), args)
    stranger = RuntimeContext(pool=retail_db.pool, user_id="fatima_johnson_7581")
    await executor.rollback(args, stranger, payload)
    async with retail_db.pool.connection() as conn:
        row = await outbox.get(conn, payload["notification_id"])
        assert row is not None and row.status == "pending"
    await executor.rollback(args, RuntimeContext(pool=retail_db.pool, user_id=USER), payload)
    async with retail_db.pool.connection() as conn:
        row = await outbox.get(conn, payload["notification_id"])
        assert row is not None and (row.status, row.last_error) == ("failed", "withdrawn")


def test_risk_depends_on_recipient_and_session() -> None:
    executor = load_catalog(CATALOG).get("send_notification_v1").executor
    risk_for = executor.risk_for  # type: ignore[attr-defined]
    operator, customer = RuntimeContext(pool=None), RuntimeContext(pool=None, user_id=USER)
    own = {"user_id": USER, "subject": "s", "body": "b"}
    assert risk_for(own, operator) == "medium"
    assert risk_for(own, customer) == "medium"
    assert risk_for({**own, "recipient": "other@example.com"}, customer) == "high"
    assert risk_for({**own, "user_id": "fatima_johnson_7581"}, customer) == "forbidden"
