"""`rolegraph usage [--day YYYY-MM-DD] [--json]`: tokens by day (UTC), node, role and model."""

from __future__ import annotations

import argparse
import dataclasses
import json
from datetime import date

from checkpoints.errors import InvalidArgument
from checkpoints.token_ledger import UsageTotal, usage_totals
from rolegraph_cli.common import open_project_database, run_command

COLUMNS = ("day", "node", "role", "model", "calls", "input", "output", "estimated")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    usage = subparsers.add_parser("usage")
    usage.add_argument("--day", help="one UTC day, YYYY-MM-DD (default: every day kept)")
    usage.add_argument("--json", action="store_true", help="one JSON object per line")
    usage.set_defaults(handler=lambda args: run_command(lambda: _show(args.day, args.json)))


def parse_day(raw: str | None) -> date | None:
    """`--day` as a date; a one-line error naming the expected form otherwise."""
    if raw is None:
        return None
    try:
        return date.fromisoformat(raw.strip())
    except ValueError:
        raise InvalidArgument(
            f"--day {raw[:40]!r} is not a day; use YYYY-MM-DD, e.g. --day 2026-01-31"
        ) from None


async def _show(raw_day: str | None, as_json: bool) -> int:
    day = parse_day(raw_day)
    async with open_project_database() as db, db.pool.connection() as conn:
        totals = await usage_totals(conn, day)
    if as_json:
        for total in totals:
            print(json.dumps(_json(total), sort_keys=True))
        return 0
    print(_table(totals, day))
    return 0


def _json(total: UsageTotal) -> dict[str, object]:
    row = dataclasses.asdict(total)
    return {**row, "day": total.day.isoformat()}


def _table(totals: list[UsageTotal], day: date | None) -> str:
    scope = day.isoformat() if day else "every day kept"
    spent = sum(t.input_tokens + t.output_tokens for t in totals)
    head = f"token usage ({scope}, UTC): {spent} tokens in {sum(t.calls for t in totals)} call(s)"
    rows = [COLUMNS, *(_cells(t) for t in totals)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    return "\n".join([head, *lines])


def _cells(t: UsageTotal) -> tuple[str, ...]:
    return (
        t.day.isoformat(),
        t.node,
        t.role or "-",
        t.model,
        str(t.calls),
        str(t.input_tokens),
        str(t.output_tokens),
        str(t.estimated_calls),
    )
