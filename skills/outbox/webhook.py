"""One webhook delivery attempt of one outbox row: an HTTP POST of its JSON body.

The same verdicts as an SMTP attempt (`skills.outbox.smtp`), split the same
way: just before the request goes out the caller records that it is about
to send (and may refuse, when it no longer holds the row); httpx connects
inside the send, and a failure to connect proves nothing left, so it is
retried. Once connected the
receiver answers, which is a verdict (2xx sent; 408, 429 and 5xx retry later;
any other answer failed), or the exchange breaks off, which is an unknown
outcome held for an operator like an SMTP send lost after DATA.

With a secret the body is signed: `X-Rolegraph-Signature: sha256=<hex>` is
HMAC-SHA256 of the exact body bytes under ROLEGRAPH_APPROVAL_WEBHOOK_SECRET,
so a receiver can tell us from anyone. `X-Rolegraph-Delivery` is the row's
Message-ID, the same on every attempt, for a receiver to drop a duplicate.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable

import httpx

from checkpoints.outbox import Notification
from skills.outbox.settings import DeliverySettings
from skills.outbox.smtp import Attempt

SIGNATURE_HEADER = "X-Rolegraph-Signature"
DELIVERY_HEADER = "X-Rolegraph-Delivery"
_RETRY_STATUSES = frozenset({408, 425, 429})


def signature(secret: str, body: bytes) -> str:
    """The signature header's value for `body`: `sha256=` and the hex HMAC."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


async def attempt_webhook(
    row: Notification,
    settings: DeliverySettings,
    before_data: Callable[[], Awaitable[bool]],
) -> Attempt:
    """POST `row.body` to `row.recipient` once. `before_data` runs just before
    the send; False aborts unsent."""
    body = row.body.encode()
    headers = {"Content-Type": "application/json", DELIVERY_HEADER: row.message_id}
    if settings.webhook_secret:
        headers[SIGNATURE_HEADER] = signature(settings.webhook_secret, body)
    timeout = httpx.Timeout(settings.webhook_timeout)
    async with httpx.AsyncClient(timeout=timeout, follow_redirects=False) as client:
        request = client.build_request("POST", row.recipient, content=body, headers=headers)
        if not await before_data():
            return Attempt("lost_claim", "the claim on this row was lost before sending")
        try:
            response = await client.send(request)
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
            return Attempt("retry", _describe(exc))  # never connected: nothing left
        except httpx.HTTPError as exc:
            return Attempt("unknown", "after sending: " + _describe(exc))
    return verdict_of(response.status_code)


def verdict_of(status: int) -> Attempt:
    """What the receiver's answer means for the row."""
    if 200 <= status < 300:
        return Attempt("sent")
    error = f"the webhook answered HTTP {status}"
    if status >= 500 or status in _RETRY_STATUSES:
        return Attempt("retry", error)
    return Attempt("failed", error)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:500]
