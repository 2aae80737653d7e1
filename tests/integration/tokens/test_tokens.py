"""Tokens on real Postgres: only hashes are stored, revoked and forged tokens fail."""

from __future__ import annotations

import hashlib

import pytest

from checkpoints.errors import InvalidArgument, NotFound
from checkpoints.opening import Database
from checkpoints.tokens import Conn, issue_token, list_tokens, revoke_token, verify_token


async def _known(conn: Conn, user_id: str) -> bool:
    return user_id == "anya_garcia_3271"


async def test_issue_stores_only_the_hash_and_verify_finds_the_identity(db: Database) -> None:
    async with db.pool.connection() as conn:
        issued = await issue_token(conn, "customer", "anya_garcia_3271", customer_exists=_known)
        cur = await conn.execute(
            "SELECT * FROM auth_tokens WHERE token_id = %s", (issued.record.token_id,)
        )
        row = await cur.fetchone()
        assert row is not None
        stored = " ".join(str(v) for v in row.values())
        assert issued.secret not in stored
        assert issued.secret.split(".")[-1] not in stored
        assert row["token_hash"] == hashlib.sha256(issued.secret.encode()).hexdigest()

        record = await verify_token(conn, issued.secret)
        assert record is not None
        assert (record.kind, record.subject) == ("customer", "anya_garcia_3271")
        (listed,) = [t for t in await list_tokens(conn) if t.token_id == record.token_id]
        assert listed.last_used_at is not None


async def test_forged_malformed_and_revoked_tokens_are_refused(db: Database) -> None:
    async with db.pool.connection() as conn:
        issued = await issue_token(conn, "operator", "alice", customer_exists=_known)
        secret = issued.secret
        forged = secret[:-4] + ("AAAA" if not secret.endswith("AAAA") else "BBBB")
        assert await verify_token(conn, forged) is None
        assert await verify_token(conn, "") is None
        assert await verify_token(conn, "Bearer " + secret) is None
        assert await verify_token(conn, secret) is not None

        revoked = await revoke_token(conn, issued.record.token_id[:6])
        assert revoked.revoked_at is not None
        assert await verify_token(conn, secret) is None


async def test_customer_tokens_need_an_existing_user(db: Database) -> None:
    async with db.pool.connection() as conn:
        with pytest.raises(NotFound, match="unknown user"):
            await issue_token(conn, "customer", "nobody_0000", customer_exists=_known)
        with pytest.raises(InvalidArgument):
            await issue_token(conn, "operator", "bad name\n", customer_exists=_known)
        with pytest.raises(InvalidArgument):
            await revoke_token(conn, "zz")
        with pytest.raises(NotFound):
            await revoke_token(conn, "ffffffffffff")
