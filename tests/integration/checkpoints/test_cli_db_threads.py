from __future__ import annotations

from checkpoints.opening import Database
from tests.cli import run_cli


async def test_db_status_names_the_server_and_counts_rows(
    db: Database, db_env: dict[str, str]
) -> None:
    async with db.pool.connection() as conn:
        await conn.execute(
            "INSERT INTO token_ledger (node, model, input_tokens, output_tokens)"
            " VALUES ('intake', 'm', 3, 4), ('intake', 'm', 1, 1)"
        )
    result = run_cli(db_env, "db", "status")
    assert result.returncode == 0, result.stderr
    assert "PostgreSQL" in result.stdout
    rows = dict(line.split() for line in result.stdout.splitlines() if line.startswith("  "))
    assert rows["token_ledger"] == "2"


def test_unreachable_database_url_is_one_line_and_exit_2(db_env: dict[str, str]) -> None:
    env = {**db_env, "DATABASE_URL": "postgresql://bob:hunter2@127.0.0.1:1/nope"}
    result = run_cli(env, "db", "status")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot connect" in lines[0]
    assert "hunter2" not in result.stderr


def test_threads_show_unknown_and_bad_age_fail_cleanly(db_env: dict[str, str]) -> None:
    unknown = run_cli(db_env, "threads", "show", "no-such-thread")
    assert unknown.returncode == 2 and "no thread" in unknown.stderr
    bad_age = run_cli(db_env, "threads", "prune", "--older-than", "soon")
    assert bad_age.returncode == 2 and "7d" in bad_age.stderr
    ok = run_cli(db_env, "threads", "prune", "--older-than", "7d")
    assert ok.returncode == 0 and "pruned 0 thread(s)" in ok.stdout
