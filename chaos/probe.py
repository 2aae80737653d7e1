"""What the campaign observes in a database: side effects, approvals, people.

The one module of the campaign that reads tables directly; it only reads.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import DictRow, dict_row

from checkpoints.database import DatabaseTarget

Effects = dict[str, Any]


def effects(target: DatabaseTarget, order_id: str, user_id: str, thread_id: str) -> Effects:
    """Every durable trace a golden path leaves, as comparable counts."""
    with _connect(target) as conn:
        row = conn.execute(_EFFECTS, {"o": order_id, "u": user_id, "t": thread_id}).fetchone()
        ledger = conn.execute(
            "SELECT skill, state, count(*) AS n FROM idempotency_ledger GROUP BY 1, 2"
        ).fetchall()
    found: Effects = dict(row or {})
    for r in ledger:
        found[f"ledger:{r['skill']}:{r['state']}"] = r["n"]
    return found


def pending_approvals(target: DatabaseTarget, thread_id: str) -> list[str]:
    with _connect(target) as conn:
        rows = conn.execute(
            "SELECT request_id FROM approvals WHERE thread_id = %s AND status = 'pending'"
            " ORDER BY created_at",
            (thread_id,),
        ).fetchall()
    return [r["request_id"] for r in rows]


def notification_ids(target: DatabaseTarget, user_id: str) -> list[int]:
    with _connect(target) as conn:
        rows = conn.execute(
            "SELECT id FROM notifications WHERE user_id = %s ORDER BY id", (user_id,)
        ).fetchall()
    return [int(r["id"]) for r in rows]


def notification_status(target: DatabaseTarget, notification_id: int) -> str | None:
    with _connect(target) as conn:
        row = conn.execute(
            "SELECT status, last_error FROM notifications WHERE id = %s", (notification_id,)
        ).fetchone()
    return None if row is None else f"{row['status']}:{row['last_error'] or ''}"


def order_status(target: DatabaseTarget, order_id: str) -> str | None:
    with _connect(target) as conn:
        row = conn.execute("SELECT status FROM orders WHERE order_id = %s", (order_id,)).fetchone()
    return None if row is None else str(row["status"])


@dataclass(frozen=True)
class Person:
    """A customer and the identifiers that are theirs alone."""

    user_id: str
    email: str
    address1: str
    orders: tuple[str, ...]
    payments: tuple[str, ...]

    def identifiers(self) -> tuple[str, ...]:
        return (self.user_id, self.email, self.address1, *self.payments)


def person(target: DatabaseTarget, user_id: str) -> Person:
    with _connect(target) as conn:
        u = conn.execute(
            "SELECT user_id, email, address1 FROM users WHERE user_id = %s", (user_id,)
        ).fetchone()
        assert u is not None, f"no user {user_id}"
        orders = conn.execute("SELECT order_id FROM orders WHERE user_id = %s", (user_id,))
        order_ids = tuple(r["order_id"] for r in orders.fetchall())
        pays = conn.execute("SELECT id FROM payment_methods WHERE user_id = %s", (user_id,))
        payment_ids = tuple(r["id"] for r in pays.fetchall())
    return Person(u["user_id"], u["email"], u["address1"], order_ids, payment_ids)


def owners(target: DatabaseTarget, order_ids: Iterable[str]) -> dict[str, str]:
    """order id -> its customer, for the ids that exist."""
    with _connect(target) as conn:
        rows = conn.execute(
            "SELECT order_id, user_id FROM orders WHERE order_id = ANY(%s)", (list(order_ids),)
        ).fetchall()
    return {r["order_id"]: r["user_id"] for r in rows}


def pick(target: DatabaseTarget, sql: str, n: int = 1) -> list[dict[str, str]]:
    """Rows of a read-only picking query (subjects of the campaign)."""
    with _connect(target) as conn:
        rows = conn.execute(sql, {"n": n}).fetchall()
    return [{k: str(v) for k, v in r.items()} for r in rows]


def fingerprint(target: DatabaseTarget) -> dict[str, dict[str, str]]:
    """Per domain table, a digest of each customer's rows: a change shows whose data moved."""
    out: dict[str, dict[str, str]] = {}
    with _connect(target) as conn:
        for table, sql in _FINGERPRINTS.items():
            out[table] = {r["owner"]: r["digest"] for r in conn.execute(sql).fetchall()}
    return out


def backends(target: DatabaseTarget, *, active_only: bool = False) -> list[int]:
    """Server pids connected to the case database other than ours."""
    with _connect(target) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND (state = 'active' OR NOT %s)",
            (active_only,),
        ).fetchall()
    return [int(r["pid"]) for r in rows]


def terminate(target: DatabaseTarget, pids: list[int]) -> int:
    with _connect(target) as conn:
        rows = conn.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n"
            " FROM unnest(%s::int[]) AS pid",
            (pids,),
        ).fetchone()
    return int(rows["n"]) if rows else 0


def _connect(target: DatabaseTarget) -> psycopg.Connection[DictRow]:
    return psycopg.connect(target.url, autocommit=True, row_factory=dict_row, connect_timeout=10)


_EFFECTS = """
SELECT
  (SELECT status FROM orders WHERE order_id = %(o)s) AS order_status,
  (SELECT count(*) FROM order_payments WHERE order_id = %(o)s AND transaction_type = 'payment') AS payments,
  (SELECT count(*) FROM order_payments WHERE order_id = %(o)s AND transaction_type = 'refund') AS refunds,
  (SELECT count(*) FROM order_request_items WHERE order_id = %(o)s) AS request_items,
  (SELECT count(*) FROM notifications WHERE user_id = %(u)s) AS notifications,
  (SELECT count(*) FROM approvals WHERE thread_id = %(t)s AND kind = 'approval') AS approvals_asked,
  (SELECT count(*) FROM audit_events WHERE thread_id = %(t)s AND status = 'customer_confirmed')
    AS confirmations
"""

_FINGERPRINTS = {
    "orders": "SELECT user_id AS owner, md5(string_agg(o::text, ',' ORDER BY order_id)) AS digest"
    " FROM orders o GROUP BY user_id",
    "order_payments": "SELECT o.user_id AS owner, md5(string_agg(p::text, ',' ORDER BY p.order_id, p.position)) AS digest"
    " FROM order_payments p JOIN orders o USING (order_id) GROUP BY o.user_id",
    "order_request_items": "SELECT o.user_id AS owner, md5(string_agg(r::text, ',' ORDER BY r.order_id, r.kind, r.position)) AS digest"
    " FROM order_request_items r JOIN orders o USING (order_id) GROUP BY o.user_id",
    "order_items": "SELECT o.user_id AS owner, md5(string_agg(i::text, ',' ORDER BY i.order_id, i.position)) AS digest"
    " FROM order_items i JOIN orders o USING (order_id) GROUP BY o.user_id",
    "users": "SELECT user_id AS owner, md5(u::text) AS digest FROM users u",
    "payment_methods": "SELECT user_id AS owner, md5(string_agg(m::text, ',' ORDER BY id)) AS digest"
    " FROM payment_methods m GROUP BY user_id",
    "notifications": "SELECT user_id AS owner, md5(string_agg(n.id::text || n.recipient || n.status, ',' ORDER BY id)) AS digest"
    " FROM notifications n GROUP BY user_id",
}
