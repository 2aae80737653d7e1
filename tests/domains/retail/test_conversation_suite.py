"""The retail conversation suite (issue 9 §7) on the rules tier, on real Postgres
holding the tau2 retail data its ids come from.

The suite must pass at least 95% of its turns; every failing turn is printed
with what was said, what went wrong and what was answered. The suite's shape
(size, turns per conversation, languages, classes) is checked without a
database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest_asyncio

from checkpoints.opening import Database
from domains.retail.storage import canonical_hash, export_canonical
from graphs.api import compile_support
from graphs.conversations import Suite, SuiteReport, load_suite, run_suite
from graphs.conversations.script import CustomerTurn
from nodes.bootstrap import build_support_context

SUITE = Path(__file__).resolve().parents[3] / "domains/retail/conversations/suite.yaml"
MIN_PASS = 0.95
CLASSES = ("ref", "clarify", "confirm", "mind", "memory", "foreign", "inject", "smalltalk", "zh")
"""Conversation classes, by id prefix; each must be there several times."""
CJK = re.compile(r"[\u4e00-\u9fff]")


def _chinese(suite: Suite) -> list[str]:
    return [
        c.id
        for c in suite.conversations
        if any(isinstance(t, CustomerTurn) and CJK.search(t.say) for t in c.turns)
    ]


def test_the_suite_covers_every_class_in_both_languages() -> None:
    suite = load_suite(SUITE)
    assert len(suite.conversations) >= 40
    assert all(2 <= len(c.turns) <= 6 for c in suite.conversations)
    for name in CLASSES:
        assert sum(c.id.startswith(name + "_") for c in suite.conversations) >= 2, name
    chinese = _chinese(suite)
    assert len(chinese) >= len(suite.conversations) // 3
    classes_in_chinese = {c.split("_")[0] for c in chinese}
    assert {
        "ref",
        "clarify",
        "confirm",
        "mind",
        "memory",
        "foreign",
        "inject",
    } <= classes_in_chinese


@dataclass(frozen=True)
class Run:
    report: SuiteReport
    data_before: str
    """The canonical hash of the data before the suite ran."""


async def _data_hash(db: Database) -> str:
    async with db.pool.connection() as conn:
        return canonical_hash(await export_canonical(conn))


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def run(tau2_db: Database) -> Run:
    """The whole suite, run once on the tau2 data."""
    ctx = await build_support_context(tau2_db.pool, env={})
    graph = compile_support(ctx, tau2_db.checkpointer, tau2_db.store)
    before = await _data_hash(tau2_db)
    return Run(await run_suite(graph, ctx, load_suite(SUITE)), before)


def test_the_suite_passes_on_the_rules_tier(run: Run) -> None:
    summary = "\n".join(run.report.summary())
    failures = "\n".join(run.report.failures())
    print(f"\n{summary}\n{failures}")
    assert run.report.pass_rate >= MIN_PASS, f"{summary}\n{failures}"


async def test_the_suite_leaves_the_data_as_it_found_it(run: Run, tau2_db: Database) -> None:
    changed = {c.id: c.changed for c in run.report.conversations if c.changed}
    assert changed, "no conversation changed anything: the suite approved no write"
    assert await _data_hash(tau2_db) == run.data_before, changed
