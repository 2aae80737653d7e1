"""`rolegraph usage`: tokens by day, node, role and model, as text and JSON."""

from __future__ import annotations

import json

from checkpoints.opening import Database
from tests.cli import run_cli

ROWS = [
    # day, node, role, model, input, output, estimated
    ("2026-01-30 23:59:59+00", "intake", None, "big", 100, 10, False),
    ("2026-01-31 00:00:00+00", "intake", None, "big", 200, 20, False),
    ("2026-01-31 08:00:00+00", "intake", None, "big", 300, 30, True),
    ("2026-01-31 09:00:00+00", "role", "order_query", "tiny", 40, 4, False),
    ("2026-01-31 23:00:00+00", "planner", None, "tiny", 50, 5, False),
]


async def _seed(db: Database) -> None:
    async with db.pool.connection() as conn:
        for at, node, role, model, tokens_in, tokens_out, estimated in ROWS:
            await conn.execute(
                "INSERT INTO token_ledger (created_at, node, role, model, input_tokens,"
                " output_tokens, estimated) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (at, node, role, model, tokens_in, tokens_out, estimated),
            )


async def test_usage_of_one_day_as_text_and_json(db: Database, db_env: dict[str, str]) -> None:
    await _seed(db)
    shown = run_cli(db_env, "usage", "--day", "2026-01-31")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "token usage (2026-01-31, UTC): 649 tokens in 4 call(s)"
    assert lines[1].split() == [
        "day", "node", "role", "model", "calls", "input", "output", "estimated",
    ]  # fmt: skip
    assert [line.split() for line in lines[2:]] == [
        ["2026-01-31", "intake", "-", "big", "2", "500", "50", "1"],
        ["2026-01-31", "planner", "-", "tiny", "1", "50", "5", "0"],
        ["2026-01-31", "role", "order_query", "tiny", "1", "40", "4", "0"],
    ]

    as_json = run_cli(db_env, "usage", "--day", "2026-01-30", "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert [json.loads(line) for line in as_json.stdout.splitlines()] == [
        {
            "day": "2026-01-30",
            "node": "intake",
            "role": None,
            "model": "big",
            "calls": 1,
            "input_tokens": 100,
            "output_tokens": 10,
            "estimated_calls": 0,
        }
    ]
    every = run_cli(db_env, "usage", "--json")
    assert every.returncode == 0, every.stderr
    days = [json.loads(line)["day"] for line in every.stdout.splitlines()]
    assert days == ["2026-01-31"] * 3 + ["2026-01-30"]  # newest day first


def test_a_bad_day_is_one_line_and_exit_2(db_env: dict[str, str]) -> None:
    result = run_cli(db_env, "usage", "--day", "31/01/2026")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert lines == [
        "rolegraph: error: --day '31/01/2026' is not a day; use YYYY-MM-DD, e.g. --day 2026-01-31"
    ]
