"""Escalation attempts through every entry point; each one that works counts as an escalation.

Only an operator answers an approval, never the customer whose action it is;
the risk gate accepts only approvals the approvals table holds as decided and
unused; compensation checks ownership; the served graph refuses callers
without a valid token (fail closed: a success without a token counts).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Iterator
from functools import partial

from chaos import probe
from chaos.escalation_cases import API_CASES, CLI_CASES, Ctx, served_cases
from chaos.scratch import Scratch
from chaos.served import serve
from chaos.tally import Outcome, Tally

SUBJECTS = """
SELECT user_id, min(order_id) AS order_id FROM orders WHERE status = 'pending'
GROUP BY user_id ORDER BY user_id DESC LIMIT %(n)s
"""
SAMPLE = ("runtime_forged_approval", "chat_abort_approves")


def run(scratch: Scratch, *, sample: bool = False) -> Tally:
    tally = Tally("escalation")
    target = scratch.clone("escalation")
    subjects: Iterator[tuple[str, str]] = iter(
        (s["user_id"], s["order_id"]) for s in probe.pick(target, SUBJECTS, 40)
    )
    ctx = Ctx(target=target, env=scratch.env(target), subjects=subjects, served=None)
    for name, case in _selected(CLI_CASES, sample):
        tally.add(_guarded(name, partial(case, ctx)))
    for name, acase in _selected(API_CASES, sample):
        tally.add(_guarded(name, partial(asyncio.run, acase(ctx))))
    served = _selected(served_cases(), sample)
    if served:
        with serve(ctx.env) as server:
            ctx.served = server
            for name, case in served:
                tally.add(_guarded(name, partial(case, ctx)))
    scratch.drop(target)
    return tally


def _selected(cases: dict[str, Callable], sample: bool) -> list[tuple[str, Callable]]:  # type: ignore[type-arg]
    return [(n, c) for n, c in cases.items() if not sample or n in SAMPLE]


def _guarded(name: str, attempt: Callable[[], Outcome]) -> Outcome:
    """A harness error in one attempt is reported, not counted as a defence."""
    try:
        outcome = attempt()
    except Exception as exc:  # noqa: BLE001 — a broken attempt is a reported result, not a crash of the campaign
        outcome = Outcome(name)
        outcome.fail(f"attempt could not be made: {type(exc).__name__}: {str(exc)[:160]}")
    outcome.case = f"escalation/{name}"
    return outcome


def audit_id() -> str:
    return "aud-chaos-" + uuid.uuid4().hex[:10]
