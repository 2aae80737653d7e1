"""A local SMTP sink on 127.0.0.1 so the demo delivers a real e-mail."""

from __future__ import annotations

import email
import socket
from email.message import Message
from types import TracebackType
from typing import Any

from aiosmtpd.controller import Controller


class _Collector:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"


class LocalMailSink:
    """Context manager running an SMTP server on a free loopback port."""

    host = "127.0.0.1"

    def __init__(self) -> None:
        self._handler = _Collector()
        self._controller = Controller(self._handler, hostname=self.host, port=_free_port(self.host))

    @property
    def port(self) -> int:
        return int(self._controller.port)

    @property
    def messages(self) -> list[Message]:
        return self._handler.messages

    def __enter__(self) -> LocalMailSink:
        self._controller.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._controller.stop()


def _free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])
