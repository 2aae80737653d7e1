"""`threads prune` keeps open promises and each table's retention; `inbox` shows what can be answered."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from checkpoints.errors import ConfigurationError
from checkpoints.retention import prune_threads
from checkpoints.row_retention import RetentionSettings, prune_rows
from graphs.api import report, resume_thread, run_request
from graphs.inbox import answerable_requests
from tests.cli import run_cli
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders
from tests.support_fixtures import Support

LATER = datetime.now(UTC) + timedelta(days=400)


async def _pending_cancel(support: Support, skip: int) -> tuple[str, str, str]:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=skip)
    asked = await run_request(support.graph, support.ctx, text=f"cancel {order}", user_id=user)
    assert asked.status == "needs_input" and asked.question is not None, asked.trace
    assert asked.question["kind"] == "confirm" and order in asked.question["text"]
    first = await run_request(
        support.graph, support.ctx, text="yes", user_id=user, thread_id=asked.thread_id
    )
    assert first.status == "interrupted", first.trace
    return user, order, first.thread_id


async def _approval_status(support: Support, thread_id: str) -> list[str]:
    async with support.db.pool.connection() as conn:
        cur = await conn.execute("SELECT status FROM approvals WHERE thread_id = %s", (thread_id,))
        return [r["status"] for r in await cur.fetchall()]


async def test_prune_keeps_a_thread_waiting_on_an_approval_unless_forced(support: Support) -> None:
    _, order, waiting = await _pending_cancel(support, skip=40)
    async with support.db.pool.connection() as conn:
        kept = await prune_threads(
            support.db.checkpointer,
            conn,
            older_than=timedelta(days=7),
            keep_latest=False,
            now=LATER,
        )
    assert waiting in kept.kept_pending and waiting not in kept.thread_ids
    done = await resume_thread(
        support.graph, support.ctx, waiting, decision="approve", actor=OPERATOR
    )
    assert done.status == "completed" and await order_status(support.db.pool, order) == "cancelled"

    _, _, forced_thread = await _pending_cancel(support, skip=41)
    async with support.db.pool.connection() as conn:
        forced = await prune_threads(
            support.db.checkpointer, conn, older_than=timedelta(days=7), keep_latest=False,
            force=True, now=LATER,
        )  # fmt: skip
    assert forced_thread in forced.thread_ids
    assert await _approval_status(support, forced_thread) == []  # nobody can answer it now


async def test_cli_prune_then_inbox_then_resume(support: Support, db_env: dict[str, str]) -> None:
    user, order, waiting = await _pending_cancel(support, skip=42)
    pruned = run_cli(db_env, "threads", "prune", "--older-than", "0s")
    assert pruned.returncode == 0, pruned.stderr
    assert "waiting on a pending approval" in pruned.stdout and waiting in pruned.stdout
    assert "removed rows: audit_events=" in pruned.stdout
    inbox = run_cli(db_env, "inbox")
    assert inbox.returncode == 0, inbox.stderr
    (line,) = [line for line in inbox.stdout.splitlines() if waiting in line]
    assert f"customer={user}" in line and "age=" in line
    resumed = run_cli(db_env, "resume", waiting, "--decision", "approve")
    assert resumed.returncode == 0, resumed.stderr
    assert await order_status(support.db.pool, order) == "cancelled"


async def test_inbox_lists_only_requests_that_can_be_answered(support: Support) -> None:
    _, _, waiting = await _pending_cancel(support, skip=43)
    me, (mine,) = await user_with_orders(support.db.pool, "delivered", skip=43)
    finished = await run_request(support.graph, support.ctx, text=f"status of {mine}?", user_id=me)
    async with support.db.pool.connection() as conn:
        for request_id, thread_id in (
            ("apr-orphan-of-a-pruned-thread", "thr-gone"),
            ("apr-stale-on-a-finished-thread", finished.thread_id),
        ):
            await conn.execute(
                "INSERT INTO approvals (request_id, thread_id, kind, skill, args, reason)"
                " VALUES (%s, %s, 'approval', 'cancel_pending_order_v1', '{}', 'stale')",
                (request_id, thread_id),
            )
    items = await answerable_requests(support.graph, support.db.pool)
    ids = {i.request_id for i in items}
    assert "apr-orphan-of-a-pruned-thread" not in ids
    assert "apr-stale-on-a-finished-thread" not in ids
    (item,) = [i for i in items if i.thread_id == waiting]
    assert item.request_id == (await report(support.graph, waiting)).interrupts[0]["id"]
    assert item.customer is not None


async def test_each_table_keeps_its_unfinished_rows_and_its_own_period(support: Support) -> None:
    user, _, waiting = await _pending_cancel(support, skip=44)
    old = datetime.now(UTC) - timedelta(days=200)
    live_audit = (await report(support.graph, waiting)).audit_id
    async with support.db.pool.connection() as conn:
        await conn.execute(
            "INSERT INTO audit_events (audit_id, status, created_at) VALUES"
            " ('aud-old-done', 'succeeded', %(t)s), (%(live)s, 'succeeded', %(t)s)",
            {"t": old, "live": live_audit},
        )
        await conn.execute(
            "INSERT INTO idempotency_ledger (key, run_id, task_id, skill, args_hash, state, created_at)"
            " VALUES ('k-done', 'aud-gone', 't1', 's', 'h', 'succeeded', %(t)s),"
            " ('k-started', 'aud-gone', 't2', 's', 'h', 'started', %(t)s),"
            " ('k-live', %(live)s, 't3', 's', 'h', 'succeeded', %(t)s)",
            {"t": old, "live": live_audit},
        )
        await conn.execute(
            "INSERT INTO approvals (request_id, thread_id, kind, status, created_at, decided_at)"
            " VALUES ('apr-old-decided', 'thr-old', 'approval', 'approved', %(t)s, %(t)s)",
            {"t": old},
        )
        await conn.execute(
            "INSERT INTO token_ledger (node, model, input_tokens, output_tokens, created_at)"
            " VALUES ('intake', 'm', 1, 1, %(t)s)",
            {"t": old},
        )
        await conn.execute(
            "INSERT INTO notifications (user_id, channel, recipient, subject, body, status,"
            " idempotency_key, message_id, created_at, sent_at) VALUES"
            " (%(u)s, 'email', 'a@b.c', 's', 'b', 'sent', 'n-sent', '<n-sent@t>', %(t)s, %(t)s),"
            " (%(u)s, 'email', 'a@b.c', 's', 'b', 'pending', 'n-pending', '<n-pending@t>',"
            " %(t)s, NULL)",
            {"u": user, "t": old},
        )
        # Audit keeps a year here, everything else its default.
        settings = RetentionSettings.from_env({"ROLEGRAPH_RETAIN_AUDIT": "365d"})
        kept_audit = await prune_rows(conn, settings)
        assert kept_audit["audit_events"] == 0 and kept_audit["notifications"] == 1
        deleted = await prune_rows(conn, RetentionSettings.from_env({}))
        cur = await conn.execute(
            "SELECT (SELECT array_agg(audit_id ORDER BY audit_id) FROM audit_events WHERE created_at = %(t)s) AS audit,"
            " (SELECT array_agg(key ORDER BY key) FROM idempotency_ledger WHERE created_at = %(t)s) AS ledger,"
            " (SELECT count(*) FROM approvals WHERE request_id = 'apr-old-decided') AS approvals,"
            " (SELECT count(*) FROM token_ledger WHERE created_at = %(t)s) AS tokens,"
            " (SELECT array_agg(idempotency_key) FROM notifications WHERE created_at = %(t)s) AS outbox",
            {"t": old},
        )
        left = await cur.fetchone()
    assert left is not None
    assert left["audit"] == [live_audit]  # the chain of a pending approval stays
    assert left["ledger"] == ["k-live", "k-started"]  # unfinished, or its thread can continue
    assert left["approvals"] == 0 and left["tokens"] == 0
    assert left["outbox"] == ["n-pending"]
    assert deleted["audit_events"] == 1 and deleted["notifications"] == 0


def test_retention_settings_are_checked() -> None:
    with pytest.raises(ConfigurationError, match="ROLEGRAPH_RETAIN_LEDGER"):
        RetentionSettings.from_env({"ROLEGRAPH_RETAIN_LEDGER": "soon"})
    with pytest.raises(ConfigurationError, match="ROLEGRAPH_RETAIN_TOKENS"):
        RetentionSettings.from_env({"ROLEGRAPH_RETAIN_TOKENS": "2h"})


def test_prune_gives_space_back(support: Support, db_env: dict[str, str]) -> None:
    del support  # the module's data must be loaded first
    import psycopg

    url = db_env["DATABASE_URL"]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO audit_events (audit_id, status, detail, created_at)"
            " SELECT 'aud-bulk-' || g, 'succeeded', %s::jsonb, now() - interval '400 days'"
            " FROM generate_series(1, 20000) g",
            (json.dumps({"pad": "x" * 200}),),
        )
        before = conn.execute("SELECT pg_total_relation_size('audit_events')").fetchone()
    pruned = run_cli(db_env, "threads", "prune", "--older-than", "3650d")
    assert pruned.returncode == 0, pruned.stderr
    with psycopg.connect(url) as conn:
        after = conn.execute("SELECT pg_total_relation_size('audit_events')").fetchone()
    assert before is not None and after is not None
    assert after[0] < before[0] / 2, (before, after)
