"""The `approvals` table: every request asked of an operator, and its decision.

The approval node records requests (for the inbox) and decisions (with the
approver); the risk gate verifies and consumes an approval here before a
high-risk call runs, so an `Approval` object alone proves nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from psycopg.rows import DictRow
from psycopg.types.json import Jsonb

DecisionStatus = Literal["approved", "rejected", "edited", "answered"]


@dataclass(frozen=True)
class RequestRow:
    """One request as the approval node records it."""

    request_id: str
    thread_id: str
    kind: str
    audit_id: str
    reason: str
    task_id: str | None = None
    skill: str | None = None
    risk: str | None = None
    args: dict[str, Any] | None = None
    args_hash: str | None = None
    user_id: str | None = None


@dataclass(frozen=True)
class CallToApprove:
    """The exact call a high-risk skill is about to make."""

    approval_id: str
    thread_id: str
    task_id: str
    skill: str
    args_hash: str
    effect_key: str
    """Idempotency key of the call: a re-executed node replays under it."""


async def record_request(conn: psycopg.AsyncConnection[DictRow], row: RequestRow) -> bool:
    """Insert a request once; a node re-run on resume finds it there.

    True only for the insert that created it: what is told of a new request
    (the operators' notification) is told once, however often the node re-runs.
    """
    cur = await conn.execute(
        "INSERT INTO approvals (request_id, thread_id, kind, skill, risk, args, args_hash,"
        " task_id, user_id, reason, audit_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (request_id) DO NOTHING",
        (
            row.request_id,
            row.thread_id,
            row.kind,
            row.skill,
            row.risk,
            Jsonb(row.args or {}),
            row.args_hash,
            row.task_id,
            row.user_id,
            row.reason,
            row.audit_id,
        ),
    )
    return cur.rowcount == 1


async def record_decision(
    conn: psycopg.AsyncConnection[DictRow],
    request_id: str,
    *,
    status: DecisionStatus,
    decided_by: str,
    args: dict[str, Any] | None,
    args_hash: str | None,
    message: str | None = None,
) -> bool:
    """Record an operator's decision on a pending request, with what will run.

    False when the request was decided already (a node re-run after a crash
    applies the same decision again and must not record it twice).
    """
    cur = await conn.execute(
        "UPDATE approvals SET status = %s, decided_args = %s, decided_hash = %s,"
        " decided_by = %s, decided_message = %s, decided_at = now()"
        " WHERE request_id = %s AND status = 'pending' RETURNING request_id",
        (
            status,
            Jsonb(args) if args is not None else None,
            args_hash,
            decided_by,
            message,
            request_id,
        ),
    )
    return await cur.fetchone() is not None


async def asked_hash(
    conn: psycopg.AsyncConnection[DictRow], request_id: str, thread_id: str
) -> str | None:
    """The args hash a request asked about (before any operator edit), if the thread has it."""
    cur = await conn.execute(
        "SELECT args_hash FROM approvals WHERE request_id = %s AND thread_id = %s",
        (request_id, thread_id),
    )
    row = await cur.fetchone()
    return None if row is None else row["args_hash"]


@dataclass(frozen=True)
class Withdrawn:
    """A pending request the customer withdrew."""

    request_id: str
    audit_id: str | None
    skill: str | None
    args_hash: str | None


async def withdraw_pending(
    conn: psycopg.AsyncConnection[DictRow], thread_id: str
) -> list[Withdrawn]:
    """Close every request of the thread still waiting for an operator as `withdrawn`
    (the customer moved on); none of them can be approved afterwards."""
    cur = await conn.execute(
        "UPDATE approvals SET status = 'withdrawn', decided_by = 'customer', decided_at = now()"
        " WHERE thread_id = %s AND status = 'pending'"
        " RETURNING request_id, audit_id, skill, args_hash",
        (thread_id,),
    )
    return [
        Withdrawn(r["request_id"], r["audit_id"], r["skill"], r["args_hash"])
        for r in await cur.fetchall()
    ]


@dataclass(frozen=True)
class RecordedDecision:
    """An operator's decision as the table holds it."""

    request_id: str
    status: DecisionStatus
    args: dict[str, Any] | None
    message: str | None


async def recorded_decisions(
    conn: psycopg.AsyncConnection[DictRow], thread_id: str, request_ids: list[str]
) -> list[RecordedDecision]:
    """Operators' decisions already recorded for these requests of `thread_id`."""
    cur = await conn.execute(
        "SELECT request_id, status, decided_args, decided_message FROM approvals"
        " WHERE thread_id = %s AND request_id = ANY(%s) AND status <> 'pending'"
        " AND decided_by LIKE 'operator:%%'",
        (thread_id, request_ids),
    )
    return [
        RecordedDecision(r["request_id"], r["status"], r["decided_args"], r["decided_message"])
        for r in await cur.fetchall()
    ]


async def record_granted(
    conn: psycopg.AsyncConnection[DictRow],
    call: CallToApprove,
    *,
    decided_by: str,
    reason: str,
) -> None:
    """Record a request and an operator's approval of it in one go.

    For operators who approve a call before it is made (a tau2 replay is a
    script of calls a human agent made with the customer's consent).
    """
    row = RequestRow(
        request_id=call.approval_id,
        thread_id=call.thread_id,
        kind="approval",
        audit_id=call.approval_id,
        reason=reason,
        task_id=call.task_id,
        skill=call.skill,
        args_hash=call.args_hash,
    )
    await record_request(conn, row)
    await record_decision(
        conn,
        call.approval_id,
        status="approved",
        decided_by=decided_by,
        args=None,
        args_hash=call.args_hash,
    )


async def consume(conn: psycopg.AsyncConnection[DictRow], call: CallToApprove) -> bool:
    """Use the approval for `call` if an operator approved exactly it; True if allowed.

    One statement both checks and marks: of two callers presenting one
    approval, only one consumes it, and only the call it was consumed by
    (same idempotency key, i.e. the same task re-executed) may present it again.
    """
    cur = await conn.execute(
        "UPDATE approvals SET used_by = %s, used_at = coalesce(used_at, now())"
        " WHERE request_id = %s AND kind = 'approval' AND status IN ('approved', 'edited')"
        " AND decided_by LIKE 'operator:%%' AND thread_id = %s AND task_id = %s"
        " AND skill = %s AND decided_hash = %s AND (used_by IS NULL OR used_by = %s)"
        " RETURNING request_id",
        (
            call.effect_key,
            call.approval_id,
            call.thread_id,
            call.task_id,
            call.skill,
            call.args_hash,
            call.effect_key,
        ),
    )
    return await cur.fetchone() is not None
