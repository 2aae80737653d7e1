"""`rolegraph tokens` as a user runs it: the secret is printed once and never stored."""

from __future__ import annotations

import hashlib

from checkpoints.opening import Database
from tests.cli import run_cli
from tests.support_fixtures import retail_db

__all__ = ["retail_db"]


async def test_issue_list_revoke(retail_db: Database, db_env: dict[str, str]) -> None:
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute("SELECT min(user_id) AS u FROM users")
        user = ((await cur.fetchone()) or {})["u"]

    issued = run_cli(db_env, "tokens", "issue", "--customer", user)
    assert issued.returncode == 0, issued.stderr
    secret = issued.stdout.strip()
    assert secret.startswith("rgtok.") and "\n" not in secret
    assert secret not in issued.stderr
    token_id = secret.split(".")[1]
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT token_hash FROM auth_tokens WHERE token_id = %s", (token_id,)
        )
        row = await cur.fetchone()
    assert row == {"token_hash": hashlib.sha256(secret.encode()).hexdigest()}

    listed = run_cli(db_env, "tokens", "list")
    assert listed.returncode == 0, listed.stderr
    assert f"{token_id}  customer:{user}  active" in listed.stdout
    assert secret.split(".")[-1] not in listed.stdout

    revoked = run_cli(db_env, "tokens", "revoke", token_id[:5])
    assert revoked.returncode == 0, revoked.stderr
    assert f"{token_id}  customer:{user}  revoked" in run_cli(db_env, "tokens", "list").stdout


def test_user_errors_are_one_line_and_exit_2(retail_db: Database, db_env: dict[str, str]) -> None:
    unknown = run_cli(db_env, "tokens", "issue", "--customer", "nobody_0000")
    assert unknown.returncode == 2 and "unknown user 'nobody_0000'" in unknown.stderr
    assert len(unknown.stderr.strip().splitlines()) == 1 and not unknown.stdout
    missing = run_cli(db_env, "tokens", "revoke", "abcdef")
    assert missing.returncode == 2 and "no token 'abcdef'" in missing.stderr
    both = run_cli(db_env, "tokens", "issue", "--customer", "x", "--operator", "y")
    assert both.returncode == 2
