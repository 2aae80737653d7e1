"""`make demo` (`python -m domains.retail.demo`): the main job end to end on the embedded database.

1. start (or attach to) the database and load the seeded reference data;
2. print the database status and one delayed order with its tracking history;
3. run three requests through the support graph: a read with a notification
   (queued in the outbox; the delivery worker running in this process sends
   it over real SMTP to a local sink), a conversation on one thread that
   asks about an order, says "ok cancel it", confirms with "yes" and stops
   for an operator's approval, given by `rolegraph resume` in a second
   process, and a bulk change that is refused;
4. print the audit chain of the approved run.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from checkpoints import outbox
from checkpoints.opening import Pool
from domains.retail.storage.generator import generate_reference
from domains.retail.storage.reads import demo_subjects, fetch_order
from domains.retail.storage.tracking_store import fetch_tracking
from graphs.api import RunReport, run_request
from rolegraph_cli.common import open_project_database
from rolegraph_cli.demo_smtp import LocalMailSink
from rolegraph_cli.session import open_session
from skills.outbox.settings import DeliverySettings
from skills.outbox.worker import run_worker

_WORKER_INTERVAL = 0.2


def main() -> int:
    with LocalMailSink() as sink:
        os.environ.update({"SMTP_HOST": sink.host, "SMTP_PORT": str(sink.port)})
        subjects = asyncio.run(_prepare())
        thread_id = asyncio.run(_requests(subjects, sink))
        _banner(f"4. A second process approves thread {thread_id}")
        _cli("resume", thread_id, "--decision", "approve")
        audit_id = asyncio.run(_audit_id(thread_id))
        _banner(f"5. The audit chain of {audit_id}")
        _cli("audit", audit_id)
    return 0


async def _prepare() -> dict[str, str]:
    _banner("1. Database and reference data")
    async with open_project_database() as db, db.pool.connection() as conn:
        summary = await generate_reference(conn)
        print(f"   {summary}")
        subjects = await demo_subjects(conn)
        assert subjects is not None, "the reference data has no delayed shipment"
        _banner(f"2. Order {subjects['delayed_order']} and its tracking history")
        order = await fetch_order(conn, subjects["delayed_order"])
        assert order is not None
        print(
            f"   user {order['user_id']}, status {order['status']}, {len(order['items'])} item(s)"
        )
        tracking = await fetch_tracking(conn, subjects["tracking_id"])
        for event in (tracking or {}).get("events", []):
            print(f"   {event['occurred_at']}  {event['location']:<22} {event['description']}")
    _cli("db", "status")
    return subjects


async def _requests(s: dict[str, str], sink: LocalMailSink) -> str:
    async with open_session() as session:
        stop = asyncio.Event()
        settings = DeliverySettings.from_env(os.environ)
        worker = asyncio.create_task(run_worker(session.db.pool, settings, stop, _WORKER_INTERVAL))
        try:
            return await _three_requests(session, s, sink)
        finally:
            stop.set()
            await worker


async def _three_requests(session: Any, s: dict[str, str], sink: LocalMailSink) -> str:
    run = _runner(session)
    _banner("3a. A read: order status + tracking + an e-mail to the customer")
    await run(f"查下订单{s['delayed_order']}顺便看看物流到哪了再发个邮件告诉我", s["delayed_user"])
    await _show_delivery(session.db.pool, sink)
    _banner("3b. A conversation: the customer confirms, then the write stops for approval")
    user = s["pending_user"]
    asked = await run(f"What's the status of my order {s['pending_order']}?", user)
    await run("ok cancel it, I ordered it by mistake", user, asked.thread_id)
    cancel = await run("yes", user, asked.thread_id)
    _banner("3c. A forbidden bulk change is refused")
    await run("Cancel all orders of every customer right now", s["pending_user"])
    return cancel.thread_id


async def _show_delivery(pool: Pool, sink: LocalMailSink) -> None:
    """Wait (bounded) for the in-process worker to empty the outbox, then show the mail."""
    async with pool.connection() as conn:
        counts = await outbox.status_counts(conn)
    for _ in range(300):
        if not counts["pending"] and not counts["sending"]:
            break
        await asyncio.sleep(0.1)
        async with pool.connection() as conn:
            counts = await outbox.status_counts(conn)
    summary = ", ".join(f"{n} {status}" for status, n in counts.items() if n)
    print(f"   [outbox worker] {summary or 'nothing queued'}")
    for message in sink.messages:
        print(f"   [smtp sink] to {message['To']}: {message['Subject']} {message['Message-ID']}")
        body = message.get_payload(decode=True)
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else ""
        print("   " + text.strip().replace("\n", "\n   "))


def _runner(session: Any) -> Callable[..., Awaitable[RunReport]]:
    async def run(text: str, user_id: str, thread_id: str | None = None) -> RunReport:
        print(f"   user {user_id}: {text}")
        result = await run_request(
            session.graph, session.ctx, text=text, user_id=user_id, thread_id=thread_id,
            on_step=_step,
        )  # fmt: skip
        print(f"   => {result.status}: {result.answer or '(waiting)'}")
        for request in result.interrupts:
            print(
                f"   => pending {request['kind']} {request['id']}: {request['skill']} {request['args']}"
            )
        return result

    return run


async def _audit_id(thread_id: str) -> str:
    async with open_session(quiet=True) as session:
        state = await session.graph.aget_state({"configurable": {"thread_id": thread_id}})
    return str(state.values["audit_id"])


def _step(node: str, update: dict[str, Any]) -> None:
    for line in update.get("trace") or []:
        print(f"      · {line}")


def _cli(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "rolegraph_cli", *args], check=True)


def _banner(title: str) -> None:
    print(f"\n== {title}")


if __name__ == "__main__":
    sys.exit(main())
