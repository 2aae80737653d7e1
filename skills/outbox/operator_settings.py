"""`OperatorNotices`: whom to tell that a request waits for an operator, and where it is.

Read once from the environment at an entry point (`nodes.bootstrap`) and
carried in the support context; nothing below reads the environment.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from checkpoints.errors import ConfigurationError

DEFAULT_INBOX_URL = "http://127.0.0.1:8765"
NO_OPERATOR_EMAIL = (
    "operators are not e-mailed about waiting requests: ROLEGRAPH_OPERATOR_EMAIL is unset"
    " (set it to a comma-separated list of addresses)"
)
# One address, no display name: nothing that could end a header or add a recipient.
_ADDRESS = re.compile(r"[^@\s<>,;:\"()\[\]\\]+@[^@\s<>,;:\"()\[\]\\]+")


@dataclass(frozen=True)
class OperatorNotices:
    """Where a waiting approval or escalation is announced; all empty means nowhere."""

    recipients: tuple[str, ...] = ()
    """E-mail addresses (`ROLEGRAPH_OPERATOR_EMAIL`), one outbox row each."""
    webhook_url: str | None = None
    """`ROLEGRAPH_APPROVAL_WEBHOOK`: receives a JSON POST per request."""
    inbox_url: str = DEFAULT_INBOX_URL
    """`ROLEGRAPH_INBOX_URL`: the web inbox the links point into."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> OperatorNotices:
        """From ROLEGRAPH_OPERATOR_EMAIL, ROLEGRAPH_APPROVAL_WEBHOOK and ROLEGRAPH_INBOX_URL;
        a malformed value is a ConfigurationError naming the variable."""
        raw = env.get("ROLEGRAPH_OPERATOR_EMAIL", "")
        recipients = tuple(a.strip() for a in raw.split(",") if a.strip())
        for address in recipients:
            if not _ADDRESS.fullmatch(address):
                raise ConfigurationError(
                    f"ROLEGRAPH_OPERATOR_EMAIL holds {address!r}, not an e-mail address;"
                    " list plain addresses separated by commas"
                )
        webhook = env.get("ROLEGRAPH_APPROVAL_WEBHOOK", "").strip() or None
        inbox = env.get("ROLEGRAPH_INBOX_URL", "").strip() or DEFAULT_INBOX_URL
        return cls(
            recipients=tuple(dict.fromkeys(recipients)),
            webhook_url=_http_url("ROLEGRAPH_APPROVAL_WEBHOOK", webhook) if webhook else None,
            inbox_url=_http_url("ROLEGRAPH_INBOX_URL", inbox).rstrip("/"),
        )

    def link(self, request_id: str) -> str:
        """The request's page in the web inbox."""
        return f"{self.inbox_url}/requests/{quote(request_id, safe='')}"


def _http_url(name: str, value: str) -> str:
    parts = urlsplit(value)
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or any(c.isspace() for c in value)
    ):
        raise ConfigurationError(f"{name} must be an http:// or https:// URL, got {value!r}")
    return value
