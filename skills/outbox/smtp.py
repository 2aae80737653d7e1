"""One SMTP delivery attempt of one outbox row, and what its outcome means.

The conversation is split at DATA. Everything before it (connect, EHLO,
MAIL, RCPT) can fail safely: the message never left, so the row is retried.
Just before DATA the caller records that it is about to send (and may
refuse, when it no longer holds the row). After DATA the server either
answers, which is a verdict (250 sent, 4xx retry, 5xx failed), or the
connection is lost or times out, which is an unknown outcome: the message
may have been accepted, so it must not be sent again blindly.

smtplib blocks, so each half runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import smtplib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import formatdate
from typing import Literal

from checkpoints.outbox import Notification
from skills.outbox.settings import DeliverySettings

Verdict = Literal["sent", "retry", "failed", "unknown", "lost_claim"]


@dataclass(frozen=True)
class Attempt:
    """The outcome of one attempt; `error` says why it did not end in `sent`."""

    verdict: Verdict
    error: str | None = None


def build_message(row: Notification, sender: str) -> EmailMessage:
    """The e-mail for `row`; its Message-ID is the row's, the same on every attempt.

    The subject may quote untrusted text: line breaks and control characters
    become spaces, so it can never end its header and start another (the
    email package would refuse the whole message instead). The body is
    content, never headers, whatever it holds.
    """
    message = EmailMessage()
    message["From"] = sender
    message["To"] = row.recipient
    message["Subject"] = one_line(row.subject)
    message["Date"] = formatdate(row.created_at.timestamp(), localtime=False)
    message["Message-ID"] = row.message_id
    message.set_content(row.body, cte=None if row.body.isascii() else "quoted-printable")
    return message


async def attempt_delivery(
    row: Notification,
    settings: DeliverySettings,
    before_data: Callable[[], Awaitable[bool]],
) -> Attempt:
    """Deliver `row` once. `before_data` runs after RCPT; False aborts unsent."""
    assert settings.smtp_host is not None, "attempt_delivery needs SMTP_HOST"
    session = _Session(settings)
    try:
        try:
            await asyncio.to_thread(session.envelope, settings.sender, row.recipient)
        except smtplib.SMTPConnectError as exc:  # a greeting other than 220: try later
            return Attempt("retry", _describe(exc))
        except (smtplib.SMTPResponseException, smtplib.SMTPRecipientsRefused) as exc:
            return _verdict_of_refusal(exc)
        except OSError as exc:  # smtplib's errors are OSErrors too
            return Attempt("retry", _describe(exc))
        if not await before_data():
            return Attempt("lost_claim", "the claim on this row was lost before DATA")
        data = build_message(row, settings.sender).as_bytes(policy=SMTP_POLICY)
        try:
            await asyncio.to_thread(session.data, data)
        except smtplib.SMTPResponseException as exc:
            return _verdict_of_refusal(exc)
        except OSError as exc:
            return Attempt("unknown", "after DATA: " + _describe(exc))
        return Attempt("sent")
    finally:
        await asyncio.to_thread(session.close)


class _Session:
    """A blocking SMTP client split at DATA."""

    def __init__(self, settings: DeliverySettings) -> None:
        self._settings = settings
        self._smtp: smtplib.SMTP | None = None

    def envelope(self, sender: str, recipient: str) -> None:
        s = self._settings
        self._smtp = smtplib.SMTP(timeout=s.smtp_timeout)
        self._smtp.connect(str(s.smtp_host), s.smtp_port)
        self._smtp.ehlo_or_helo_if_needed()
        code, reply = self._smtp.mail(sender)
        if code != 250:
            raise smtplib.SMTPSenderRefused(code, reply, sender)
        code, reply = self._smtp.rcpt(recipient)
        if code not in (250, 251):
            raise smtplib.SMTPRecipientsRefused({recipient: (code, reply)})

    def data(self, message: bytes) -> None:
        assert self._smtp is not None
        code, reply = self._smtp.data(message)  # raises SMTPDataError unless DATA got 354
        if code != 250:
            raise smtplib.SMTPDataError(code, reply)

    def close(self) -> None:
        if self._smtp is None:
            return
        try:
            self._smtp.quit()
        except (OSError, smtplib.SMTPException):
            self._smtp.close()


def _verdict_of_refusal(
    exc: smtplib.SMTPResponseException | smtplib.SMTPRecipientsRefused,
) -> Attempt:
    """A server answer: permanent (5xx) fails the row, anything else is retried."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
    else:
        codes = [exc.smtp_code]
    permanent = all(500 <= code < 600 for code in codes)
    return Attempt("failed" if permanent else "retry", _describe(exc))


def one_line(text: str) -> str:
    """`text` with every run of whitespace and control characters made one space."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:500]
