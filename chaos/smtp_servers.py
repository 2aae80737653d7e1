"""Local SMTP servers on 127.0.0.1 that misbehave on purpose, counting what they received."""

from __future__ import annotations

import asyncio
import email
import socket
from collections import Counter
from types import TracebackType
from typing import Any, Literal

from aiosmtpd.controller import Controller

Mode = Literal["ok", "slow", "drop_first"]
SLOW_REPLY_S = 10.5


class _Handler:
    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.received: Counter[str] = Counter()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content)
        key = str(message.get("Message-ID") or f"{message['To']}|{message['Subject']}")
        self.received[key] += 1
        if self.mode == "slow":
            await asyncio.sleep(SLOW_REPLY_S)
        elif self.mode == "drop_first" and sum(self.received.values()) == 1:
            # The message arrived; the client never learns it did.
            server.transport.abort()
        return "250 OK"


class FaultySink:
    """`with FaultySink("slow") as sink:` an SMTP server; `sink.received` counts per Message-ID."""

    host = "127.0.0.1"

    def __init__(self, mode: Mode = "ok") -> None:
        self._handler = _Handler(mode)
        self._controller = Controller(self._handler, hostname=self.host, port=free_port())

    @property
    def port(self) -> int:
        return int(self._controller.port)

    @property
    def received(self) -> Counter[str]:
        return self._handler.received

    def env(self) -> dict[str, str]:
        return {"SMTP_HOST": self.host, "SMTP_PORT": str(self.port)}

    def __enter__(self) -> FaultySink:
        self._controller.start()
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._controller.stop()


def free_port() -> int:
    """A loopback port nobody listens on (for `SMTP down`)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
