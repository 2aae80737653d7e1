"""`rolegraph notify …` in a subprocess, as an operator would run it."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys

from checkpoints import outbox
from checkpoints.opening import Database
from skills.outbox.settings import DeliverySettings
from skills.outbox.worker import deliver_due
from tests.cli import run_cli
from tests.integration.outbox.outbox_rows import USER, enqueue, row
from tests.smtp_servers import DropAfterData, Inbox, serving


def _env(db_env: dict[str, str], smtp: dict[str, str] | None = None) -> dict[str, str]:
    prefixes = ("SMTP_", "NOTIFY_", "ROLEGRAPH_OPERATOR_EMAIL", "ROLEGRAPH_APPROVAL_WEBHOOK")
    env = {k: v for k, v in db_env.items() if not k.startswith(prefixes)}
    return {**env, **(smtp or {})}


def test_deliver_without_smtp_is_one_line_and_exit_2(db_env: dict[str, str]) -> None:
    done = run_cli(_env(db_env), "notify", "deliver")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "rolegraph: error: SMTP_HOST is unset: set it (and SMTP_PORT) to the server that"
        " delivers notifications"
    ]


async def test_list_says_once_when_operators_are_not_emailed(
    outbox_db: Database, db_env: dict[str, str]
) -> None:
    async with outbox_db.pool.connection() as conn:
        hook = await outbox.enqueue(
            conn, user_id=USER, recipient="https://user:pw@hooks.test/x?token=s3cret",
            subject="approval waiting", body="{}", key="test-hook-listing", channel="webhook",
        )  # fmt: skip
    unset = await asyncio.to_thread(run_cli, _env(db_env), "notify", "list")
    assert unset.returncode == 0, unset.stderr
    assert unset.stdout.count("ROLEGRAPH_OPERATOR_EMAIL is unset") == 1
    assert f"{hook.id}  pending  attempts=0  webhook https://hooks.test  " in unset.stdout
    assert "s3cret" not in unset.stdout and "pw@" not in unset.stdout
    env = {**_env(db_env), "ROLEGRAPH_OPERATOR_EMAIL": "ops@example.test"}
    told = await asyncio.to_thread(run_cli, env, "notify", "list")
    assert told.returncode == 0 and "ROLEGRAPH_OPERATOR_EMAIL" not in told.stdout


async def test_an_unknown_outcome_waits_for_the_operator(
    outbox_db: Database, db_env: dict[str, str]
) -> None:
    queued = await enqueue(outbox_db, "Operator decides")
    with serving(DropAfterData()) as smtp:
        done = await asyncio.to_thread(run_cli, _env(db_env, smtp), "notify", "deliver")
    assert done.returncode == 0, done.stderr
    assert "0 sent, 0 retrying later, 0 failed, 1 unknown" in done.stdout
    assert "1 notification(s) with an unknown outcome wait for an operator" in done.stdout
    listed = await asyncio.to_thread(run_cli, _env(db_env), "notify", "list", "--status", "unknown")
    assert listed.returncode == 0 and f"{queued.id}  unknown  attempts=1" in listed.stdout
    assert "o***@example.com" in listed.stdout and "outbox.user@" not in listed.stdout
    retried = await asyncio.to_thread(run_cli, _env(db_env), "notify", "retry", str(queued.id))
    assert retried.returncode == 0 and "queued again by" in retried.stdout
    inbox = Inbox()
    with serving(inbox) as smtp:
        done = await asyncio.to_thread(run_cli, _env(db_env, smtp), "notify", "deliver")
    assert "1 sent" in done.stdout, done.stdout + done.stderr
    assert inbox.message_ids() == [queued.message_id]  # the same Message-ID as the lost attempt


async def test_drop_and_retry_refuse_what_they_cannot_change(
    outbox_db: Database, db_env: dict[str, str]
) -> None:
    queued = await enqueue(outbox_db, "Drop me")
    dropped = await asyncio.to_thread(run_cli, _env(db_env), "notify", "drop", str(queued.id))
    assert dropped.returncode == 0, dropped.stderr
    assert (await row(outbox_db, queued.id)).status == "failed"
    again = await asyncio.to_thread(run_cli, _env(db_env), "notify", "drop", str(queued.id))
    assert again.returncode == 2
    assert "only an unknown or pending one can be dropped" in again.stderr
    missing = await asyncio.to_thread(run_cli, _env(db_env), "notify", "retry", "987654321")
    assert missing.returncode == 2 and "no notification 987654321" in missing.stderr


async def test_deliver_loop_delivers_and_stops_on_sigint(
    outbox_db: Database, db_env: dict[str, str]
) -> None:
    inbox = Inbox()
    with serving(inbox) as smtp:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "rolegraph_cli", "notify", "deliver", "--loop", "--interval", "0.1",
            env=_env(db_env, smtp), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            queued = await enqueue(outbox_db, "Looped")
            for _ in range(1200):
                if inbox.messages:
                    break
                await asyncio.sleep(0.05)
        finally:
            proc.send_signal(signal.SIGINT)
            out, err = (part.decode() for part in await proc.communicate())
    assert proc.returncode == 0, err
    assert inbox.message_ids() == [queued.message_id]
    assert "notify deliver: 1 sent" in out


async def _expire_leases(db: Database) -> None:
    """What a lease running out looks like, without waiting for it."""
    async with db.pool.connection() as conn:
        await conn.execute(
            "UPDATE notifications SET claimed_until = now() - interval '1 second'"
            " WHERE status = 'sending'"
        )


async def test_a_worker_killed_after_claiming_loses_nothing(
    outbox_db: Database, db_env: dict[str, str]
) -> None:
    queued, inbox = await enqueue(outbox_db, "Killed after claim"), Inbox()
    with serving(inbox) as smtp:
        env = {**_env(db_env, smtp), "ROLEGRAPH_CRASH_AT": "outbox_after_claim"}
        killed = await asyncio.to_thread(run_cli, env, "notify", "deliver")
        assert killed.returncode == -signal.SIGKILL
        assert (await row(outbox_db, queued.id)).status == "sending" and inbox.received == 0
        await _expire_leases(outbox_db)
        counts = await deliver_due(outbox_db.pool, DeliverySettings.from_env(smtp))
    assert (counts.recovered, counts.sent) == (1, 1)
    assert inbox.message_ids() == [queued.message_id]


async def test_a_worker_killed_after_the_server_accepted_never_resends(
    outbox_db: Database, db_env: dict[str, str]
) -> None:
    queued, inbox = await enqueue(outbox_db, "Killed after DATA"), Inbox()
    with serving(inbox) as smtp:
        env = {**_env(db_env, smtp), "ROLEGRAPH_CRASH_AT": "outbox_after_data"}
        killed = await asyncio.to_thread(run_cli, env, "notify", "deliver")
        assert killed.returncode == -signal.SIGKILL and inbox.received == 1
        await _expire_leases(outbox_db)
        counts = await deliver_due(outbox_db.pool, DeliverySettings.from_env(smtp))
        assert (counts.recovered, counts.claimed) == (1, 0)
    assert inbox.received == 1
    assert (await row(outbox_db, queued.id)).status == "unknown"
