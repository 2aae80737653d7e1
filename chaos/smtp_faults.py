"""SMTP faults: down, slow (250 after 10.5 s), connection dropped after DATA, and controls.

Each case runs the read + e-mail golden path with SMTP in the fault, then the
delivery worker (`rolegraph notify deliver`) against the next server, and
counts the copies each Message-ID arrived in: exactly one per notification.
The answer must not claim `sent` for a row that is not.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass

from chaos import probe
from chaos.golden import Path, answer_of, new_thread, paths
from chaos.proc import cli
from chaos.scratch import Scratch
from chaos.smtp_servers import FaultySink, Mode, free_port
from chaos.tally import Outcome, Tally
from checkpoints.database import DatabaseTarget


@dataclass(frozen=True)
class SmtpCase:
    """SMTP during the run, then SMTP during the worker (`None`: unset, `down`: nobody listens)."""

    name: str
    during_run: Mode | str | None
    during_worker: Mode | str


CASES = (
    SmtpCase("control_ok", "ok", "ok"),
    SmtpCase("unset_then_worker", None, "ok"),
    SmtpCase("down_then_worker", "down", "ok"),
    SmtpCase("slow_250_after_10s", "slow", "slow"),
    SmtpCase("drop_after_data", "drop_first", "same"),
)
SAMPLE = ("unset_then_worker",)
WORKER_ROUNDS = 6
WORKER_PAUSE_S = 5.0
CLAIMS_SENT = re.compile(r"\b(?:was|were|has been|have been|is|are) sent\b", re.IGNORECASE)


def run(scratch: Scratch, *, sample: bool = False) -> Tally:
    tally = Tally("smtp")
    read = paths(scratch)[0]
    for case in CASES:
        if not sample or case.name in SAMPLE:
            tally.add(run_case(scratch, read, case))
    return tally


def run_case(scratch: Scratch, path: Path, case: SmtpCase) -> Outcome:
    outcome = Outcome(f"smtp/{case.name}")
    target = scratch.clone("smtp")
    with ExitStack() as stack:
        sinks: list[FaultySink] = []
        run_env = _smtp_env(stack, sinks, case.during_run)
        worker_env = (
            run_env if case.during_worker == "same" else _smtp_env(stack, sinks, case.during_worker)
        )
        ran = cli(scratch.env(target, **run_env), "run", "--user-id", path.user_id,
                  "--thread-id", new_thread("smtp"), path.text)  # fmt: skip
        if ran.traceback or ran.rc != 0:
            outcome.bad("crashes" if ran.traceback else "stuck", f"run: {ran.brief()}")
        _check_claim(outcome, target, path, answer_of(ran))
        _deliver(outcome, scratch.env(target, **worker_env), target, path)
        _count(outcome, target, path, sum((s.received for s in sinks), Counter()))
    scratch.drop(target)
    return outcome


def _deliver(outcome: Outcome, env: dict[str, str], target: DatabaseTarget, path: Path) -> None:
    """Run the delivery worker until every row is final (sent/failed) or the rounds run out.

    Several rounds, because a row that failed once waits out its backoff.
    """
    for _ in range(WORKER_ROUNDS):
        worker = cli(env, "notify", "deliver")
        if worker.traceback:
            outcome.bad("crashes", f"worker: {worker.brief()}")
        if worker.rc != 0:
            outcome.notes.append(f"worker: {worker.brief()}")
            return
        states = [
            probe.notification_status(target, n) or ""
            for n in probe.notification_ids(target, path.user_id)
        ]
        if all(s.startswith(("sent", "failed")) for s in states):
            return
        time.sleep(WORKER_PAUSE_S)


def _smtp_env(stack: ExitStack, sinks: list[FaultySink], mode: Mode | str | None) -> dict[str, str]:
    if mode is None:
        return {}
    if mode == "down":
        return {"SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(free_port())}
    sink = stack.enter_context(FaultySink(mode))  # type: ignore[arg-type]
    sinks.append(sink)
    return sink.env()


def _check_claim(outcome: Outcome, target: DatabaseTarget, path: Path, answer: str) -> None:
    """The answer says what is true: `sent` only for a row that was sent."""
    for nid in probe.notification_ids(target, path.user_id):
        status = (probe.notification_status(target, nid) or "").split(":")[0]
        if CLAIMS_SENT.search(answer) and status != "sent":
            outcome.bad("lost", f"answer says sent, notification {nid} is {status}")


def _count(outcome: Outcome, target: DatabaseTarget, path: Path, received: Counter[str]) -> None:
    rows = probe.notification_ids(target, path.user_id)
    if len(rows) != 1:
        outcome.bad("duplicated" if len(rows) > 1 else "lost", f"{len(rows)} outbox rows")
    copies = sum(received.values())
    if copies == 0:
        outcome.bad("lost", "no message reached any SMTP server")
    for message_id, n in received.items():
        if n > 1:
            outcome.bad("duplicated", f"{message_id} arrived {n} times", n - 1)
    if len(received) > len(rows):
        outcome.bad("duplicated", f"{len(received)} distinct messages for {len(rows)} row(s)")
