"""Bearer tokens for the served graph: issue, verify, revoke, list.

A token reads `rgtok.<token_id>.<secret>`. The id is public (it names the
token in `tokens list` and `tokens revoke`); the secret is 256 random bits
shown once at issue time. Only the sha256 of the whole token is stored, so
the table cannot be replayed as credentials, and verification looks the row
up by its id and compares hashes in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import psycopg
from psycopg.rows import DictRow

from checkpoints.errors import InvalidArgument, NotFound

Conn = psycopg.AsyncConnection[DictRow]
TokenKind = Literal["customer", "operator"]
CustomerCheck = Callable[[Conn, str], Awaitable[bool]]
"""Whether a user id names an existing customer (the domain pack answers)."""

PREFIX = "rgtok"
_TOKEN = re.compile(rf"^{PREFIX}\.([0-9a-f]{{12}})\.([A-Za-z0-9_-]{{40,}})$")
_SUBJECT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@:+-]{0,199}$")
_MIN_PREFIX = 4
# A busy client would otherwise turn every request into a write.
_TOUCH_INTERVAL_S = 60


@dataclass(frozen=True)
class TokenRecord:
    """A stored token, without its secret."""

    token_id: str
    kind: TokenKind
    subject: str
    """The customer's user id, or the operator's name."""
    created_at: datetime
    revoked_at: datetime | None
    last_used_at: datetime | None


@dataclass(frozen=True)
class IssuedToken:
    """A new token: `secret` exists only here and is never stored."""

    record: TokenRecord
    secret: str


async def issue_token(
    conn: Conn, kind: TokenKind, subject: str, *, customer_exists: CustomerCheck
) -> IssuedToken:
    """Create a token for a customer (an existing user id) or an operator."""
    subject = _checked_subject(kind, subject)
    if kind == "customer" and not await customer_exists(conn, subject):
        raise NotFound(f"unknown user {subject!r}; issue customer tokens for an existing user id")
    token_id = secrets.token_hex(6)
    secret = f"{PREFIX}.{token_id}.{secrets.token_urlsafe(32)}"
    cur = await conn.execute(
        "INSERT INTO auth_tokens (token_id, token_hash, kind, subject) VALUES (%s, %s, %s, %s)"
        " RETURNING token_id, kind, subject, created_at, revoked_at, last_used_at",
        (token_id, _hash(secret), kind, subject),
    )
    return IssuedToken(record=_record(await cur.fetchone()), secret=secret)


async def verify_token(conn: Conn, secret: str) -> TokenRecord | None:
    """The live token `secret` proves, or None (malformed, unknown, revoked)."""
    match = _TOKEN.match(secret)
    if match is None:
        return None
    cur = await conn.execute(
        "SELECT token_id, token_hash, kind, subject, created_at, revoked_at, last_used_at"
        " FROM auth_tokens WHERE token_id = %s",
        (match.group(1),),
    )
    row = await cur.fetchone()
    if row is None or not hmac.compare_digest(row["token_hash"], _hash(secret)):
        return None
    if row["revoked_at"] is not None:
        return None
    await conn.execute(
        "UPDATE auth_tokens SET last_used_at = now() WHERE token_id = %s AND revoked_at IS NULL"
        " AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => %s))",
        (row["token_id"], _TOUCH_INTERVAL_S),
    )
    return _record(row)


async def revoke_token(conn: Conn, token: str) -> TokenRecord:
    """Revoke the token named by its id, a unique id prefix, or the token itself."""
    match = _TOKEN.match(token)
    wanted = match.group(1) if match else token.strip().lower()
    if not re.fullmatch(rf"[0-9a-f]{{{_MIN_PREFIX},12}}", wanted):
        raise InvalidArgument(
            f"cannot read token id {token!r}; pass an id (or its first {_MIN_PREFIX}+ "
            "characters) from `rolegraph tokens list`"
        )
    async with conn.transaction():
        cur = await conn.execute(
            "SELECT token_id FROM auth_tokens WHERE token_id LIKE %s FOR UPDATE", (wanted + "%",)
        )
        ids = [row["token_id"] for row in await cur.fetchall()]
        if not ids:
            raise NotFound(f"no token {wanted!r}; list tokens with `rolegraph tokens list`")
        if len(ids) > 1:
            raise InvalidArgument(
                f"token prefix {wanted!r} matches {len(ids)} tokens; give more characters"
            )
        cur = await conn.execute(
            "UPDATE auth_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE token_id = %s"
            " RETURNING token_id, kind, subject, created_at, revoked_at, last_used_at",
            (ids[0],),
        )
        return _record(await cur.fetchone())


async def list_tokens(conn: Conn) -> list[TokenRecord]:
    """Every token, newest first, without secrets."""
    cur = await conn.execute(
        "SELECT token_id, kind, subject, created_at, revoked_at, last_used_at"
        " FROM auth_tokens ORDER BY created_at DESC, token_id"
    )
    return [_record(row) for row in await cur.fetchall()]


def _checked_subject(kind: str, subject: str) -> str:
    if kind not in ("customer", "operator"):
        raise InvalidArgument(f"unknown token kind {kind!r}; use customer or operator")
    subject = subject.strip()
    if not _SUBJECT.fullmatch(subject):
        what = "user id" if kind == "customer" else "operator name"
        raise InvalidArgument(
            f"cannot use {what} {subject!r}; use 1-200 letters, digits or _.@:+- "
            "starting with a letter or digit"
        )
    return subject


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _record(row: DictRow | None) -> TokenRecord:
    assert row is not None  # every caller selected or returned exactly one row
    return TokenRecord(
        token_id=row["token_id"],
        kind=row["kind"],
        subject=row["subject"],
        created_at=row["created_at"],
        revoked_at=row["revoked_at"],
        last_used_at=row["last_used_at"],
    )
