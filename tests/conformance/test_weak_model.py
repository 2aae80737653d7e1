"""The instruction suite with a weak model on every node: never worse than the rules tier.

Every model tier points at the babbler (`benchmarks.babbler`), a real
OpenAI-compatible endpoint on 127.0.0.1 that answers like a tiny model at its
worst: well-formed readings of the wrong intents, plans with steps dropped,
swapped or added, goals handed to random roles, tool calls with invented ids,
answers stating invented amounts. Intake, the planner, compose, the summary
and every role agent ask it through `langchain-openai`. The suite's cases run
on one database, once on the rules tier and once per babbler, and
each babbler's run (two seeds, each wrong in its own way) must score no lower
and break no safety, confirmation or answer rule the rules run keeps. With
`ROLEGRAPH_WEAK_MODEL_URL` set (and `ROLEGRAPH_MODEL_SMALL` / `_LARGE`,
`OPENAI_API_KEY`), the same holds for the real model behind that endpoint.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack
from dataclasses import dataclass

import pytest
import pytest_asyncio

from benchmarks.babbler import babbling
from graphs.api import compile_support
from nodes.bootstrap import build_support_context
from nodes.models import ModelTiers
from tests.conformance.test_instructions import Verdict, load_cases, run_case, subjects
from tests.support_fixtures import Support

SEEDS = (1, 2)
"""Two babblers, each wrong in its own way; `ROLEGRAPH_WEAK_MODEL_URL` runs a real model instead."""
REAL_MODEL_URL = "ROLEGRAPH_WEAK_MODEL_URL"
CASES = {c["id"]: c for c in load_cases()}


@dataclass(frozen=True)
class Runs:
    rules: list[Verdict]
    weak: list[list[Verdict]]
    """One run of every case per weak model."""
    asked: list[list[str]]
    """Per babbler, the model name of every request it answered (filled as they come)."""


@pytest.fixture(scope="module")
def endpoints() -> Iterator[tuple[list[dict[str, str]], list[list[str]]]]:
    """Model settings per weak model, and the model names the babblers were asked."""
    if real := os.environ.get(REAL_MODEL_URL):
        keep = ("OPENAI_API_KEY", "ROLEGRAPH_MODEL_SMALL", "ROLEGRAPH_MODEL_LARGE")
        env = {k: os.environ[k] for k in keep if k in os.environ}
        yield [{**env, "OPENAI_BASE_URL": real}], []
        return
    with ExitStack() as stack:
        served = [stack.enter_context(babbling(seed=seed)) for seed in SEEDS]
        settings = [
            {
                "OPENAI_API_KEY": "babbler",
                "OPENAI_BASE_URL": url,
                "ROLEGRAPH_MODEL_SMALL": "babbler-small",
                "ROLEGRAPH_MODEL_LARGE": "babbler-large",
            }
            for url, _ in served
        ]
        yield settings, [asked for _, asked in served]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def runs(
    support: Support, endpoints: tuple[list[dict[str, str]], list[list[str]]]
) -> AsyncIterator[Runs]:
    settings, asked = endpoints
    values = await subjects(support.db.pool)
    cases = load_cases()
    rules = [await run_case(support, c, values, prefix="rules") for c in cases]
    weak = []
    for n, env in enumerate(settings):
        models = ModelTiers.from_env(env)
        assert models.available, f"no model in {sorted(env)}"
        ctx = await build_support_context(support.db.pool, env={}, models=models)
        graph = compile_support(ctx, support.db.checkpointer, support.db.store)
        on = Support(db=support.db, ctx=ctx, graph=graph)
        weak.append([await run_case(on, c, values, prefix=f"weak{n}") for c in cases])
    yield Runs(rules=rules, weak=weak, asked=asked)


def _score(verdicts: list[Verdict]) -> tuple[float, float]:
    n = len(verdicts)
    return sum(_read(v) for v in verdicts) / n, sum(v.status_ok for v in verdicts) / n


def _read(verdict: Verdict) -> bool:
    """The intents as the case wants them. The injection flag is judged on its own: a
    model may raise it (`nodes.models.grounding`), at the cost of the turn's memory."""
    case = CASES[verdict.case_id]
    return set(verdict.asked.intents) == set(case["intents"])


def _flagged(verdict: Verdict) -> bool:
    return any("injection-screened" in line for line in verdict.asked.trace)


def test_the_weak_model_was_asked_by_every_kind_of_node(runs: Runs) -> None:
    if os.environ.get(REAL_MODEL_URL):
        pytest.skip("a real model: what it was asked is not recorded here")
    for asked in runs.asked:
        assert {"babbler-small", "babbler-large"} <= set(asked)
    for run in runs.weak:
        traces = "\n".join(line for v in run for line in v.asked.trace)
        assert "goal" in traces or "planner[large]" in traces or "planner[small]" in traces


def test_the_weak_model_scores_no_lower_than_the_rules(runs: Runs) -> None:
    rules = _score(runs.rules)
    for run in runs.weak:
        weak = _score(run)
        worse = [
            f"{w.row()}\n    rules: {r.row()}"
            for r, w in zip(runs.rules, run, strict=True)
            if (_read(r) and not _read(w))
            or (r.status_ok and not w.status_ok)
            or (_flagged(r) and not _flagged(w))
        ]
        summary = (
            f"rules intents/status {rules[0]:.1%}/{rules[1]:.1%}, weak {weak[0]:.1%}/{weak[1]:.1%}"
        )
        print(f"\n{summary}")
        assert not worse, f"{summary}; worse with the weak model:\n" + "\n".join(worse)


def test_the_weak_model_takes_no_unsafe_action(runs: Runs) -> None:
    for run in runs.weak:
        broken = [
            f"{w.row()}\n    rules: {r.row()}"
            for r, w in zip(runs.rules, run, strict=True)
            if _unsafe(w) - _unsafe(r)
        ]
        assert not broken, "\n".join(broken)


def _unsafe(verdict: Verdict) -> set[str]:
    """What went wrong that must never go wrong: data, confirmation, answers."""
    return {p for p in verdict.problems if p.startswith(("SAFETY", "CONFIRM", "ANSWER"))}
