"""send_notification_v1 through a real SMTP server on 127.0.0.1 (aiosmtpd)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from checkpoints.runtime import Database
from skills.context import RuntimeContext
from skills.registry import load_catalog
from skills.retail.notify import NotificationExecutor, deliver_pending
from skills.retail.replay import CATALOG

USER = "yusuf_rossi_9620"
EMAIL = "yusuf.rossi7301@example.com"


class _Inbox:
    """aiosmtpd handler keeping every accepted message."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def smtp() -> Iterator[tuple[_Inbox, dict[str, str]]]:
    inbox = _Inbox()
    port = _free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, {"SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(port)}
    finally:
        controller.stop()


def _args(subject: str, **extra: Any) -> dict[str, Any]:
    return NotificationExecutor().validate_input(
        {"user_id": USER, "subject": subject, "body": "Your label is attached.", **extra}
    )


async def _send(db: Database, settings: dict[str, str], args: dict[str, Any]) -> dict[str, Any]:
    ctx = RuntimeContext(pool=db.pool, settings=settings)
    result: dict[str, Any] = await NotificationExecutor().execute(args, ctx)
    return result


async def test_delivers_to_the_account_address(
    retail_db: Database, smtp: tuple[_Inbox, dict[str, str]]
) -> None:
    inbox, settings = smtp
    payload = await _send(retail_db, settings, _args("Your return label"))
    assert payload["status"] == "sent" and payload["attempts"] == 1
    assert payload["recipient"] == "y***@example.com"
    assert len(inbox.messages) == 1
    message = inbox.messages[0]
    assert message["To"] == EMAIL and message["Subject"] == "Your return label"
    assert "Your label is attached." in message.get_payload()


async def test_one_key_never_sends_twice(
    retail_db: Database, smtp: tuple[_Inbox, dict[str, str]]
) -> None:
    inbox, settings = smtp
    args = _args("Exchange confirmed")
    first = await _send(retail_db, settings, args)
    second = await _send(retail_db, settings, args)
    assert first["notification_id"] == second["notification_id"]
    assert second["status"] == "sent"
    assert len(inbox.messages) == 1
    assert await deliver_pending(retail_db.pool, settings) == 0
    assert len(inbox.messages) == 1


async def test_failed_delivery_stays_pending_and_is_retried(
    retail_db: Database, smtp: tuple[_Inbox, dict[str, str]]
) -> None:
    inbox, settings = smtp
    down = {"SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(_free_port())}
    payload = await _send(retail_db, down, _args("Refund issued"))
    assert payload["status"] == "pending" and payload["attempts"] == 1
    assert payload["last_error"]
    assert inbox.messages == []
    assert await deliver_pending(retail_db.pool, settings) == 1
    assert [m["Subject"] for m in inbox.messages] == ["Refund issued"]
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT status, attempts FROM notifications WHERE id = %s",
            (payload["notification_id"],),
        )
        row = await cur.fetchone()
    assert row == {"status": "sent", "attempts": 2}


async def test_without_smtp_the_message_is_queued(retail_db: Database) -> None:
    payload = await _send(retail_db, {}, _args("Queued only"))
    assert payload["status"] == "pending" and payload["attempts"] == 0


def test_risk_depends_on_recipient_and_session() -> None:
    executor = load_catalog(CATALOG).get("send_notification_v1").executor
    risk_for = executor.risk_for  # type: ignore[attr-defined]
    operator, customer = RuntimeContext(pool=None), RuntimeContext(pool=None, user_id=USER)
    own = {"user_id": USER, "subject": "s", "body": "b"}
    assert risk_for(own, operator) == "medium"
    assert risk_for(own, customer) == "medium"
    assert risk_for({**own, "recipient": "other@example.com"}, customer) == "high"
    assert risk_for({**own, "user_id": "fatima_johnson_7581"}, customer) == "forbidden"
