"""The delivery worker against real SMTP servers on 127.0.0.1 (aiosmtpd) and real Postgres."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from checkpoints import outbox
from checkpoints.opening import Database
from skills.outbox.settings import DeliverySettings
from skills.outbox.worker import (
    DeliveryCounts,
    background_worker,
    deliver_due,
    start_background_worker,
)
from tests.integration.outbox.outbox_rows import EMAIL, enqueue, row
from tests.smtp_servers import DropAfterData, Inbox, Refuses, free_port, serving


def _settings(smtp: dict[str, str], **extra: str) -> DeliverySettings:
    return DeliverySettings.from_env({**smtp, **extra})


async def _make_due(db: Database, notification_id: int) -> None:
    """Skip the backoff wait: the test has already checked its length."""
    async with db.pool.connection() as conn:
        await conn.execute(
            "UPDATE notifications SET next_attempt_at = now() WHERE id = %s", (notification_id,)
        )


async def _backoff(db: Database, notification_id: int) -> timedelta:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT next_attempt_at - updated_at AS wait FROM notifications WHERE id = %s",
            (notification_id,),
        )
        found = await cur.fetchone()
    assert found is not None
    wait: timedelta = found["wait"]
    return wait


async def test_worker_sends_each_row_once_with_its_message_id(outbox_db: Database) -> None:
    inbox = Inbox()
    first, second = await enqueue(outbox_db, "First"), await enqueue(outbox_db, "Second")
    with serving(inbox) as smtp:
        counts = await deliver_due(outbox_db.pool, _settings(smtp))
        again = await deliver_due(outbox_db.pool, _settings(smtp))
    assert (counts.claimed, counts.sent) == (2, 2) and again == DeliveryCounts()
    assert sorted(inbox.message_ids()) == sorted([first.message_id, second.message_id])
    message = next(m for m in inbox.messages if m["Subject"] == "First")
    assert message["To"] == EMAIL and "About: First" in str(message.get_payload())
    sent = await row(outbox_db, first.id)
    assert (sent.status, sent.attempts, sent.last_error) == ("sent", 1, None)
    assert sent.sent_at is not None


async def test_smtp_down_backs_off_exponentially_then_fails(outbox_db: Database) -> None:
    queued = await enqueue(outbox_db, "Refund issued")
    down = _settings(
        {"SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(free_port())},
        NOTIFY_MAX_ATTEMPTS="3", NOTIFY_BACKOFF_BASE="40",
    )  # fmt: skip
    for attempt, (low, high) in enumerate([(20, 40), (40, 80)], start=1):
        counts = await deliver_due(outbox_db.pool, down)
        assert counts.retrying == 1
        waiting = await row(outbox_db, queued.id)
        assert (waiting.status, waiting.attempts) == ("pending", attempt)
        assert "ConnectionRefusedError" in (waiting.last_error or "")
        assert (
            timedelta(seconds=low)
            <= await _backoff(outbox_db, queued.id)
            <= timedelta(seconds=high)
        )
        assert (await deliver_due(outbox_db.pool, down)).claimed == 0  # not due yet
        await _make_due(outbox_db, queued.id)
    assert (await deliver_due(outbox_db.pool, down)).failed == 1
    failed = await row(outbox_db, queued.id)
    assert (failed.status, failed.attempts) == ("failed", 3)
    inbox = Inbox()
    with serving(inbox) as smtp:
        assert (await deliver_due(outbox_db.pool, _settings(smtp))).claimed == 0
    assert inbox.received == 0


async def test_a_permanent_refusal_fails_at_once_and_a_temporary_one_retries(
    outbox_db: Database,
) -> None:
    with serving(Refuses("554 5.7.1 rejected")) as smtp:
        permanent = await enqueue(outbox_db, "Rejected")
        assert (await deliver_due(outbox_db.pool, _settings(smtp))).failed == 1
    with serving(Refuses("451 4.3.0 try later")) as smtp:
        temporary = await enqueue(outbox_db, "Later")
        assert (await deliver_due(outbox_db.pool, _settings(smtp))).retrying == 1
    assert (await row(outbox_db, permanent.id)).status == "failed"
    assert (await row(outbox_db, temporary.id)).status == "pending"


async def test_a_slow_server_receives_each_message_exactly_once(outbox_db: Database) -> None:
    # The server: 250 only after 10.5 s (the old socket timeout was 10 s).
    inbox = Inbox(delay=10.5)
    queued = await enqueue(outbox_db, "Slow server")
    with serving(inbox) as smtp:
        counts = await deliver_due(outbox_db.pool, _settings(smtp))
        again = await deliver_due(outbox_db.pool, _settings(smtp))
    assert counts.sent == 1 and again.claimed == 0
    assert inbox.received == 1 and inbox.message_ids() == [queued.message_id]
    assert (await row(outbox_db, queued.id)).status == "sent"


async def test_a_timeout_after_data_is_unknown_and_never_resent(outbox_db: Database) -> None:
    inbox = Inbox(delay=3.0)
    queued = await enqueue(outbox_db, "Timed out")
    with serving(inbox) as smtp:
        settings = _settings(smtp, NOTIFY_SMTP_TIMEOUT="1")
        assert (await deliver_due(outbox_db.pool, settings)).unknown == 1
        assert (await deliver_due(outbox_db.pool, settings)).claimed == 0
    assert inbox.received == 1
    held = await row(outbox_db, queued.id)
    assert held.status == "unknown" and held.claimed_by is not None
    assert "after DATA" in (held.last_error or "")


async def test_a_connection_lost_after_data_is_unknown_and_never_resent(
    outbox_db: Database,
) -> None:
    dropping = DropAfterData()
    queued = await enqueue(outbox_db, "Dropped")
    with serving(dropping) as smtp:
        assert (await deliver_due(outbox_db.pool, _settings(smtp))).unknown == 1
        assert (await deliver_due(outbox_db.pool, _settings(smtp))).claimed == 0
    assert dropping.received == 1
    assert (await row(outbox_db, queued.id)).status == "unknown"


async def test_two_workers_deliver_each_row_exactly_once(outbox_db: Database) -> None:
    inbox = Inbox(delay=0.02)
    rows = [await enqueue(outbox_db, f"Batch {i}") for i in range(12)]
    with serving(inbox) as smtp:
        settings = DeliverySettings(**{**vars(_settings(smtp)), "batch_size": 2})

        async def drain(worker: str) -> DeliveryCounts:
            total = DeliveryCounts()
            while (counts := await deliver_due(outbox_db.pool, settings, worker=worker)).claimed:
                total += counts
            return total

        a, b = await asyncio.gather(drain("worker-a"), drain("worker-b"))
    assert a.sent + b.sent == 12 and a.lost + b.lost == 0
    assert sorted(inbox.message_ids()) == sorted(r.message_id for r in rows)


async def test_a_dead_workers_claim_is_settled_by_what_it_had_done(outbox_db: Database) -> None:
    before_data, after_data = (
        await enqueue(outbox_db, "Claimed"),
        await enqueue(outbox_db, "Mid-send"),
    )
    async with outbox_db.pool.connection() as conn:
        claimed = await outbox.claim_due(conn, worker="dead", limit=2, lease_seconds=0.001)
        assert {r.id for r in claimed} == {before_data.id, after_data.id}
        assert await outbox.mark_data_started(conn, after_data.id, "dead")
    await asyncio.sleep(0.01)  # let the dead worker's lease run out
    inbox = Inbox()
    with serving(inbox) as smtp:
        counts = await deliver_due(outbox_db.pool, _settings(smtp))
    assert counts.recovered == 2 and counts.sent == 1
    assert inbox.message_ids() == [before_data.message_id]
    assert (await row(outbox_db, after_data.id)).status == "unknown"


async def test_a_stopping_worker_gives_back_the_rows_it_has_not_begun(
    outbox_db: Database,
) -> None:
    first, second = await enqueue(outbox_db, "Later 1"), await enqueue(outbox_db, "Later 2")
    inbox, stop = Inbox(), asyncio.Event()
    stop.set()
    with serving(inbox) as smtp:
        stopped = await deliver_due(outbox_db.pool, _settings(smtp), stop=stop)
        assert (stopped.claimed, stopped.sent) == (2, 0)
        for released in (await row(outbox_db, first.id), await row(outbox_db, second.id)):
            assert (released.status, released.attempts, released.claimed_by) == ("pending", 0, None)
        assert (await deliver_due(outbox_db.pool, _settings(smtp))).sent == 2
    assert sorted(inbox.message_ids()) == sorted([first.message_id, second.message_id])


async def test_the_background_worker_delivers_beside_a_server(outbox_db: Database) -> None:
    assert start_background_worker(outbox_db.pool, {}) is None  # no SMTP_HOST: nothing to run
    inbox = Inbox()
    with serving(inbox) as smtp:
        env = {**smtp, "NOTIFY_WORKER_INTERVAL": "0.05"}
        async with background_worker(outbox_db.pool, env) as task:
            assert task is not None
            queued = await enqueue(outbox_db, "In the background")
            for _ in range(400):
                if inbox.messages:
                    break
                await asyncio.sleep(0.05)
        assert task.cancelled()
    assert inbox.message_ids() == [queued.message_id]


async def test_pruning_keeps_every_unsettled_row(outbox_db: Database) -> None:
    settled, waiting = (
        await enqueue(outbox_db, "Old, dropped"),
        await enqueue(outbox_db, "Old, queued"),
    )
    async with outbox_db.pool.connection() as conn:
        assert await outbox.operator_drop(conn, settled.id, "tester")
        await conn.execute(
            "UPDATE notifications SET updated_at = now() - interval '40 days' WHERE id = ANY(%s)",
            ([settled.id, waiting.id],),
        )
        assert await outbox.prune_settled(conn, timedelta(days=30)) >= 1
        assert await outbox.get(conn, settled.id) is None
        assert await outbox.get(conn, waiting.id) is not None
