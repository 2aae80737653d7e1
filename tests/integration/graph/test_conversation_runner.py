"""The conversation suite runner on real Postgres: it drives the Python API as the
customer and as an operator, scores each turn, and leaves data and memory as it
found them; `rolegraph conversations run` prints the counts and exits by the
pass rate."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml

from checkpoints.errors import InvalidArgument
from graphs.conversations import load_suite, run_suite
from graphs.inbox import answerable_requests
from nodes.memory.facts import Fact
from nodes.memory.store import entries, remember
from tests.cli import run_cli
from tests.integration.graph.helpers import OPERATOR, order_status, user_with_orders
from tests.support_fixtures import Support


def _suite(tmp_path: Path, *conversations: dict[str, object]) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(yaml.safe_dump({"conversations": list(conversations)}), encoding="utf-8")
    return path


def _status_of(order: str, *, want: str = "pending") -> dict[str, object]:
    return {
        "say": f"What's the status of order {order}?",
        "expect": {"status": "completed", "contains": [order, want]},
    }


async def test_a_write_is_scored_then_put_back_with_the_customers_memory(
    support: Support, tmp_path: Path
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=60)
    kept = Fact(key="contact_channel", value="phone", importance=1.0)
    await remember(support.db.store, support.db.pool, user, [kept], datetime.now(UTC))
    cancel = {
        "id": "cancel_approved",
        "user": user,
        "changes": [order],
        "turns": [
            {"say": "From now on, please refund to my gift card.",
             "expect": {"status": "completed", "contains": ["Noted"]}},
            {"say": f"Please cancel order {order}, I ordered it by mistake",
             "expect": {"status": ["needs_input", "interrupted"]}},
            {"say": "yes", "expect": {"status": ["interrupted", "error"]}},
            {"operator": "approve", "expect": {"status": "completed", "contains": ["cancelled"]}},
            _status_of(order, want="cancelled"),
        ],
    }  # fmt: skip
    suite = load_suite(_suite(tmp_path, cancel))

    report = await run_suite(support.graph, support.ctx, suite, operator=OPERATOR)

    (result,) = report.conversations
    assert result.passed, report.failures()
    assert result.changed is not None and order in result.changed
    assert await order_status(support.db.pool, order) == "pending"
    remembered = await entries(support.db.store, user)
    assert [(e.key, e.value) for e in remembered] == [("contact_channel", "phone")]
    assert report.summary() == [
        "conversations: 1 passed, 0 failed",
        "turns: 5 passed, 0 failed (pass rate 100.0%)",
    ]


async def test_misses_are_scored_per_turn_and_the_conversation_goes_on(
    support: Support, tmp_path: Path
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=61)
    other, _ = await user_with_orders(support.db.pool, "pending", skip=62)
    conversation = {
        "id": "misses",
        "user": user,
        "changes": [],
        "turns": [
            {**_status_of(order), "expect": {"status": "refused"}},
            {"say": f"cancel {order}", "as": other, "expect": {"status": "error", "contains": ["no thread"]}},
            {"operator": "approve", "expect": {"status": "error", "contains": ["nothing to resume"]}},
            _status_of(order),
        ],
    }  # fmt: skip
    suite = load_suite(_suite(tmp_path, conversation))

    report = await run_suite(support.graph, support.ctx, suite, operator=OPERATOR)

    (result,) = report.conversations
    assert [t.passed for t in result.turns] == [False, True, True, True]
    assert result.turns[0].problems == ["status completed, want refused"]
    assert report.pass_rate == 0.75
    assert report.failures()[0].startswith("misses: turn 1 \"say: What's the status")
    assert result.changed == ()


async def test_a_suite_naming_unknown_customers_runs_nothing(
    support: Support, tmp_path: Path
) -> None:
    ghost = {"id": "ghost", "user": "nobody_0000", "turns": [_status_of("#W0000000")]}
    suite = load_suite(_suite(tmp_path, ghost))
    with pytest.raises(InvalidArgument, match=r"does not hold \(nobody_0000\)"):
        await run_suite(support.graph, support.ctx, suite, operator=OPERATOR)


async def test_the_cli_prints_counts_and_exits_by_the_pass_rate(
    support: Support, db_env: dict[str, str], tmp_path: Path
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=63)
    good = {"id": "good", "user": user, "turns": [_status_of(order), _status_of(order)]}
    bad = {"id": "bad", "user": user, "turns": [_status_of(order, want="delivered")]}
    path = _suite(tmp_path, good, bad)

    shown = run_cli(db_env, "conversations", "run", str(path))
    assert shown.returncode == 1, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "PASS good (2 turns)" and lines[1] == "FAIL bad (1 turns)"
    assert "answer lacks 'delivered'" in lines[2]
    assert lines[-2:] == [
        "conversations: 1 passed, 1 failed",
        "turns: 2 passed, 1 failed (pass rate 66.7%)",
    ]
    lenient = run_cli(db_env, "conversations", "run", str(path), "--json", "--min-pass", "0.6")
    assert lenient.returncode == 0, lenient.stderr
    data = json.loads(lenient.stdout.strip().splitlines()[-1])
    assert data["conversations"] == {"passed": 1, "failed": 1}
    assert data["turns"] == {"passed": 2, "failed": 1}
    assert data["results"][1]["turns"][0]["problems"] == ["answer lacks 'delivered'"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("missing.yaml",), "cannot read it"),
        (("suite.yaml", "--min-pass", "2"), "--min-pass 2.0 is not a rate"),
        (("ghost.yaml",), "does not hold (nobody_0000)"),
    ],
)
def test_the_cli_refuses_bad_input_in_one_line(
    retail_db: object, db_env: dict[str, str], tmp_path: Path, args: tuple[str, ...], says: str
) -> None:
    _suite(tmp_path, {"id": "ok", "user": "nobody_0000", "turns": [_status_of("#W0000000")]})
    (tmp_path / "ghost.yaml").write_text((tmp_path / "suite.yaml").read_text())
    result = run_cli(
        db_env,
        "conversations",
        "run",
        *[str(tmp_path / a) if a.endswith(".yaml") else a for a in args],
    )
    assert result.returncode == 2, result.stdout
    (line,) = result.stderr.strip().splitlines()[-1:]
    assert line.startswith("rolegraph: error: ") and says in line, result.stderr


async def test_what_a_script_leaves_waiting_is_closed_not_left_in_the_inbox(
    support: Support, tmp_path: Path
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "pending", skip=64)
    left_open = {
        "id": "left_open",
        "user": user,
        "turns": [
            {"say": f"Please cancel order {order}, no longer needed",
             "expect": {"status": ["needs_input", "interrupted"]}},
            {"say": "yes", "expect": {"status": ["interrupted", "error"]}},
            {"say": "I want to talk to a real person", "thread": 2,
             "expect": {"status": "interrupted", "interrupt": {"kind": "escalation"}}},
        ],
    }  # fmt: skip
    report = await run_suite(
        support.graph, support.ctx, load_suite(_suite(tmp_path, left_open)), operator=OPERATOR
    )

    (result,) = report.conversations
    assert result.passed, report.failures()
    waiting = await answerable_requests(support.graph, support.db.pool)
    assert not [item for item in waiting if item.thread_id.startswith("conv-")]
    assert await order_status(support.db.pool, order) == "pending"
    assert result.changed == ()
