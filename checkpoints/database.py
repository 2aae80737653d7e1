"""Resolve which PostgreSQL rolegraph uses: `DATABASE_URL` or the embedded one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from checkpoints.embedded import embedded_url
from checkpoints.settings import DatabaseSettings


@dataclass(frozen=True)
class DatabaseTarget:
    """A resolved database: its URL and a description safe to print."""

    url: str
    kind: Literal["embedded", "external"]
    location: str


def resolve_database(settings: DatabaseSettings) -> DatabaseTarget:
    """Pick the configured server, starting the embedded one when none is set."""
    if settings.database_url:
        return DatabaseTarget(
            url=settings.database_url,
            kind="external",
            location=redact_url(settings.database_url),
        )
    url = embedded_url(settings.data_dir)
    return DatabaseTarget(url=url, kind="embedded", location=str(settings.data_dir))


def redact_url(url: str) -> str:
    """Drop the password from a connection URL so it can be printed or logged."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = (parts.username or "") + ":***"
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc[-1]}"))


def with_database(url: str, dbname: str) -> str:
    """The same server URL pointing at another database."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{dbname}"))
