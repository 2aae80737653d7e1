"""`DeliverySettings`: how the delivery worker reaches SMTP (and signs webhooks)
and paces retries.

Read once from the environment at an entry point (the CLI, the demo, the
served graph) and passed down; nothing below reads the environment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from checkpoints.errors import ConfigurationError
from checkpoints.outbox import Channel

DEFAULT_SENDER = "support@rolegraph.invalid"


@dataclass(frozen=True)
class DeliverySettings:
    """Delivery configuration; `smtp_host` None means nothing can be delivered."""

    smtp_host: str | None = None
    smtp_port: int = 25
    sender: str = DEFAULT_SENDER
    # Attempts (connection failures, 4xx answers) before a row is `failed`.
    max_attempts: int = 5
    # Per socket operation. Generous: a slow server must be waited for, since
    # a timeout after DATA leaves an outcome nobody can know.
    smtp_timeout: float = 60.0
    # Seconds between polls of an idle worker loop.
    interval: float = 5.0
    # Backoff before attempt n+1: min(backoff_max, backoff_base * 2**(n-1)),
    # jittered uniformly into its upper half.
    backoff_base: float = 30.0
    backoff_max: float = 3600.0
    batch_size: int = 20
    # Webhook rows are delivered when ROLEGRAPH_APPROVAL_WEBHOOK is set; the
    # secret (when set) signs each body so a receiver can tell us from anyone.
    webhooks: bool = False
    webhook_secret: str | None = None
    webhook_timeout: float = 10.0

    @property
    def channels(self) -> tuple[Channel, ...]:
        """The outbox channels this worker can deliver (it claims no other row)."""
        email: tuple[Channel, ...] = ("email",) if self.smtp_host else ()
        return email + (("webhook",) if self.webhooks else ())

    @property
    def lease_seconds(self) -> float:
        """How long a claim holds: a whole SMTP conversation of slow steps."""
        return max(300.0, 10 * self.smtp_timeout)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> DeliverySettings:
        """From SMTP_*, NOTIFY_* and ROLEGRAPH_APPROVAL_WEBHOOK* variables; a malformed
        number is a ConfigurationError."""
        return cls(
            smtp_host=env.get("SMTP_HOST", "").strip() or None,
            smtp_port=int(_number(env, "SMTP_PORT", 25, integer=True)),
            sender=env.get("SMTP_FROM", "").strip() or DEFAULT_SENDER,
            max_attempts=int(_number(env, "NOTIFY_MAX_ATTEMPTS", 5, integer=True)),
            smtp_timeout=_number(env, "NOTIFY_SMTP_TIMEOUT", 60.0),
            interval=_number(env, "NOTIFY_WORKER_INTERVAL", 5.0),
            backoff_base=_number(env, "NOTIFY_BACKOFF_BASE", 30.0),
            backoff_max=_number(env, "NOTIFY_BACKOFF_MAX", 3600.0),
            webhooks=bool(env.get("ROLEGRAPH_APPROVAL_WEBHOOK", "").strip()),
            webhook_secret=env.get("ROLEGRAPH_APPROVAL_WEBHOOK_SECRET", "").strip() or None,
            webhook_timeout=_number(env, "NOTIFY_WEBHOOK_TIMEOUT", 10.0),
        )


def _number(env: Mapping[str, str], name: str, default: float, *, integer: bool = False) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(int(raw)) if integer else float(raw)
    except ValueError:
        value = -1.0
    if value <= 0 or value != value or value == float("inf"):
        kind = "a positive whole number" if integer else "a positive number of seconds"
        raise ConfigurationError(f"{name} must be {kind}, got {raw!r}; fix or unset it")
    return value
