"""Real SMTP servers on 127.0.0.1 (aiosmtpd) that behave well or badly on purpose."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller


class Inbox:
    """Accepts every message; `received` counts DATA commands that reached the handler."""

    def __init__(self, delay: float = 0.0) -> None:
        self.messages: list[Message] = []
        self.received = 0
        self._delay = delay

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received += 1
        if self._delay:
            await asyncio.sleep(self._delay)  # a slow server: 250 only after the delay
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"

    def message_ids(self) -> list[str]:
        return [str(m["Message-ID"]) for m in self.messages]


class DropAfterData(Inbox):
    """Reads the whole message, then drops the connection without an answer."""

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received += 1
        self.messages.append(message_from_bytes(envelope.content))
        server.transport.abort()
        return "250 OK"


class Refuses(Inbox):
    """Answers DATA with a fixed SMTP code (e.g. 451 or 554)."""

    def __init__(self, reply: str) -> None:
        super().__init__()
        self._reply = reply

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received += 1
        return self._reply


def free_port() -> int:
    """A loopback port nobody listens on (for an SMTP server that is down)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(handler: Inbox) -> Iterator[dict[str, str]]:
    """Run `handler` on a free port; yield the SMTP_* environment that reaches it."""
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield {"SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(port)}
    finally:
        controller.stop()
