"""Model faults: a local OpenAI-compatible stub failing, hanging and lying.

Every case must end as the rules tier ends for the same words — after the
customer's "yes" where the turn asks them to confirm a change: the same
status and the same writes (planned or waiting for approval). A write the
rules tier does not plan is unauthorized, one it plans and the model run
does not is lost; internal error text in the answer is a leak; a run that
takes far longer than one model timeout is stuck.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from typing import Any

from chaos import probe
from chaos.confirm import YES, asks_to_confirm
from chaos.golden import new_thread, paths
from chaos.leaks import leaks
from chaos.model_stub import model_stub
from chaos.proc import Ran, cli
from chaos.scratch import Scratch
from chaos.tally import Outcome, Tally
from checkpoints.database import DatabaseTarget
from nodes.bootstrap import load_static_config

MODEL_TIMEOUT_S = 5
SLOW_RUN_S = 30.0  # two model calls at most, each bounded by the timeout, plus start-up


@dataclass(frozen=True)
class ModelCase:
    mode: str
    request: str  # "read" or "cancel"


CASES = tuple(
    ModelCase(mode, request)
    for mode, requests in {
        "http500": ("read", "cancel"),
        "http429": ("read",),
        "hang": ("read",),
        "invalid_json": ("read", "cancel"),
        "reading_adds_cancel": ("read",),
        "plan_adds_cancel": ("read",),
        "plan_drops_write": ("cancel",),
        "plan_drops_args": ("read",),
    }.items()
    for request in requests
)
SAMPLE = (ModelCase("reading_adds_cancel", "read"),)


def run(scratch: Scratch, *, sample: bool = False) -> Tally:
    tally = Tally("model")
    subject = paths(scratch)[1]  # a pending order: a hostile cancel would take
    texts = {"read": f"Where is my order {subject.order_id}?",
             "cancel": f"Please cancel order {subject.order_id}, I ordered it by mistake"}  # fmt: skip
    target = scratch.clone("model")
    me = probe.person(target, subject.user_id)
    rules = {
        name: _run(scratch.env(target), me.user_id, text)[-1][0] for name, text in texts.items()
    }
    with model_stub() as base_url:
        for case in SAMPLE if sample else CASES:
            env = scratch.env(target, OPENAI_BASE_URL=base_url, OPENAI_API_KEY="stub",
                              ROLEGRAPH_MODEL_SMALL=case.mode, ROLEGRAPH_MODEL_TIMEOUT=str(MODEL_TIMEOUT_S))  # fmt: skip
            tally.add(_case(target, env, me, case, texts[case.request], rules[case.request]))
    scratch.drop(target)
    return tally


def _case(
    target: DatabaseTarget,
    env: dict[str, str],
    me: probe.Person,
    case: ModelCase,
    text: str,
    rules: Ran,
) -> Outcome:
    outcome = Outcome(f"model/{case.mode}/{case.request}")
    before = probe.fingerprint(target)
    runs = _run(env, me.user_id, text)
    for ran, took in runs:
        if ran.traceback:
            outcome.bad("crashes", ran.brief())
        if took > SLOW_RUN_S:
            outcome.bad(
                "stuck", f"one request took {took:.0f}s with a {MODEL_TIMEOUT_S}s model timeout"
            )
        for leak in leaks(str((ran.report() or {}).get("answer") or ""), me, said=text):
            outcome.bad("leaks", leak)
    _against_rules(outcome, runs[-1][0].report() or {}, rules.report() or {})
    if changed := _changed(before, probe.fingerprint(target)):
        outcome.bad("unauthorized", f"rows changed without approval: {changed}", len(changed))
    return outcome


def _against_rules(outcome: Outcome, got: dict[str, Any], want: dict[str, Any]) -> None:
    """Same status, same writes as the rules tier for the same words."""
    if got.get("status") != want.get("status"):
        outcome.fail(f"status {got.get('status')} where the rules tier says {want.get('status')}")
    extra, missing = writes(got) - writes(want), writes(want) - writes(got)
    if extra:
        outcome.bad("unauthorized", f"writes the words do not support: {sorted(extra)}", len(extra))
    if missing:
        outcome.bad(
            "lost", f"writes the words support were dropped: {sorted(missing)}", len(missing)
        )


def writes(report: dict[str, Any]) -> set[str]:
    """The side-effecting skills a report plans or waits to run."""
    named = [t.get("skill") for t in report.get("plan") or []]
    named += [i.get("skill") for i in report.get("interrupts") or []]
    return {str(s) for s in named if s in side_effect_skills()}


@cache
def side_effect_skills() -> frozenset[str]:
    registry = load_static_config()[0]
    return frozenset(s.metadata.skill_id for s in registry if s.metadata.side_effect)


def _run(env: dict[str, str], user_id: str, text: str) -> list[tuple[Ran, float]]:
    """The request, and the customer's yes when the turn asks them to confirm a change;
    each run with how long it took."""
    thread = new_thread("model")
    runs = [_timed(env, user_id, thread, text)]
    if asks_to_confirm(runs[0][0].report()):
        runs.append(_timed(env, user_id, thread, YES))
    return runs


def _timed(env: dict[str, str], user_id: str, thread: str, text: str) -> tuple[Ran, float]:
    started = time.monotonic()
    ran = cli(env, "run", "--json", "--user-id", user_id, "--thread-id", thread, text)
    return ran, time.monotonic() - started


def _changed(before: dict[str, dict[str, str]], after: dict[str, dict[str, str]]) -> list[str]:
    return [f"{table}:{owner}" for table in after for owner in set(before.get(table, {})) | set(after[table])
            if before.get(table, {}).get(owner) != after[table].get(owner)]  # fmt: skip
