"""`rolegraph memory list|forget --user U` (issue 9 §5), on memory the CLI's own
`rolegraph run` wrote: the operator sees and erases one customer's facts only."""

from __future__ import annotations

from typing import Any

from checkpoints.opening import Database
from tests.cli import run_cli


async def _two_customers(db: Database) -> tuple[str, str]:
    async with db.pool.connection() as conn:
        cur = await conn.execute("SELECT user_id FROM users ORDER BY user_id LIMIT 2")
        rows: list[Any] = await cur.fetchall()
    return rows[0]["user_id"], rows[1]["user_id"]


async def test_list_and_forget(retail_db: Database, db_env: dict[str, str]) -> None:
    me, other = await _two_customers(retail_db)
    for user, text in (
        (me, "From now on, refund to my gift card."),
        (me, "Actually from now on refund to my paypal."),
        (me, "Always answer me in Chinese"),
        (other, "Please contact me by email from now on"),
    ):
        assert run_cli(db_env, "run", "--user-id", user, text).returncode == 0
    shown = run_cli(db_env, "memory", "list", "--user", me)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[-1] == "3 fact(s)"
    assert any(line.startswith("refund_method=paypal  current") for line in lines)
    assert any(line.startswith("refund_method=gift_card  superseded") for line in lines)
    assert not any("contact_channel" in line for line in lines)  # the other customer's

    gone = run_cli(db_env, "memory", "forget", "--user", me, "--key", "refund_method")
    assert gone.returncode == 0 and "forgot 2 fact(s) of key 'refund_method'" in gone.stdout
    assert run_cli(db_env, "memory", "list", "--user", me).stdout.splitlines()[-1] == "1 fact(s)"
    assert "forgot 1 fact(s)" in run_cli(db_env, "memory", "forget", "--user", me).stdout
    assert run_cli(db_env, "memory", "list", "--user", me).stdout.splitlines() == ["0 fact(s)"]
    theirs = run_cli(db_env, "memory", "list", "--user", other).stdout
    assert theirs.startswith("contact_channel=email  current")


async def test_bad_input_is_one_line_and_exit_2(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    me, _ = await _two_customers(retail_db)
    for args in (
        ("memory", "list", "--user", "no_such_customer_0000"),
        ("memory", "forget", "--user", me, "--key", "Not A Key"),
        ("memory", "list", "--user", "has space"),
    ):
        result = run_cli(db_env, *args)
        assert result.returncode == 2, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1
        assert result.stderr.startswith("rolegraph: error: ")
