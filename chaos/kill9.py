"""Kill -9 matrix: every node boundary and every write-window crash point of the golden paths.

Each case runs on its own clone of the reference data: the phases before the
kill as usual, the killed phase with SIGKILL after its N-th progress line (or
with `ROLEGRAPH_CRASH_AT`), then the thread is continued (`rolegraph resume T`,
approving what waits) and compared with the uninterrupted run.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from chaos import probe
from chaos.golden import Baseline, Driven, Path, drive, new_thread, paths, record, run_phase
from chaos.scratch import Scratch
from chaos.tally import Outcome, Tally

# Crash points inside the write window (skills/faults.py), per kind of write.
NOTIFY_POINTS = ("after_ledger_claim", "before_effect_commit", "after_effect_commit")
WRITE_POINTS = ("after_ledger_claim", "before_effect_commit", "after_effect_commit")


@dataclass(frozen=True)
class KillPoint:
    """Where one case dies: after a progress line of a phase, or at a crash point."""

    phase: int
    after_lines: int | None = None
    crash_at: str | None = None

    @property
    def label(self) -> str:
        where = f"line{self.after_lines}" if self.crash_at is None else self.crash_at
        return f"p{self.phase}:{where}"


def kill_points(path: Path, base: Baseline) -> list[KillPoint]:
    """Every node boundary of every phase, then the write window of the writing phase."""
    points = [
        KillPoint(phase, after_lines=n)
        for phase, lines in enumerate(base.lines)
        for n in range(1, lines + 1)
    ]
    writing = len(base.lines) - 1
    crash = NOTIFY_POINTS if not path.approve else WRITE_POINTS
    return points + [KillPoint(writing, crash_at=name) for name in crash]


def run(scratch: Scratch, *, sample: bool = False, workers: int = 2) -> Tally:
    """The whole matrix (or, with `sample`, a fixed handful of it)."""
    tally = Tally("kill9")
    cases: list[tuple[Path, Baseline, KillPoint]] = []
    for path in paths(scratch):
        if sample and path.name not in _SAMPLE:
            continue
        base = record(scratch, path)
        cases += [(path, base, p) for p in kill_points(path, base)]
    if sample:
        cases = [c for c in cases if c[2].label in _SAMPLE.get(c[0].name, ())]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for outcome in pool.map(lambda c: run_case(scratch, *c), cases):
            tally.add(outcome)
    return tally


# Line 1 of a `run` is the turn node's; a resume starts past it. The cancel's phases are
# the request, the customer's yes and the operator's approval.
_SAMPLE = {
    "read_email": ("p0:line5", "p0:after_effect_commit"),
    "cancel": ("p1:line2", "p2:line3"),
}


def run_case(scratch: Scratch, path: Path, base: Baseline, point: KillPoint) -> Outcome:
    """One kill, one continue, one comparison."""
    outcome = Outcome(f"{path.name}/{point.label}")
    target = scratch.clone(f"k9_{path.name}")
    env, thread = scratch.env(target), new_thread(path.name)
    try:
        given = _until_killed(env, path.phases(thread), point, outcome)
        driven = drive(env, target, thread, path.user_id)
        _judge(
            outcome, driven, given, base, probe.effects(target, path.order_id, path.user_id, thread)
        )
    finally:
        scratch.drop(target)
    return outcome


def _until_killed(
    env: dict[str, str], phases: list[list[str]], point: KillPoint, outcome: Outcome
) -> int:
    """Run the phases up to the killed one; return how many approvals were given."""
    given = 0
    for i, phase in enumerate(phases[: point.phase + 1]):
        killing = i == point.phase
        phase_env = (
            env | {"ROLEGRAPH_CRASH_AT": point.crash_at} if killing and point.crash_at else env
        )
        ran = run_phase(phase_env, phase, point.after_lines if killing else None)
        given += "approve" in phase
        if ran.traceback:
            outcome.bad("crashes", f"phase {i}: traceback on stderr")
        if killing and ran.rc not in (-9, 0):
            outcome.notes.append(f"killed phase ended {ran.brief()}")
        if not killing and ran.rc != 0:
            outcome.fail(f"phase {i} before the kill failed: {ran.brief()}")
    return given


def _judge(
    outcome: Outcome, driven: Driven, given: int, base: Baseline, found: probe.Effects
) -> None:
    for ran in driven.runs:
        if ran.traceback:
            outcome.bad("crashes", "continue printed a traceback")
    if driven.stuck:
        outcome.bad("stuck", driven.stuck)
    elif (driven.status, driven.answer) != (base.status, base.answer):
        outcome.bad(
            "stuck",
            f"ended {driven.status}: {driven.answer[:120]!r}, expected {base.answer[:80]!r}",
        )
    expected_asks = int(base.effects.get("approvals_asked") or 0)
    asked = max(given + driven.approvals_given, int(found.get("approvals_asked") or 0))
    if asked > expected_asks:
        outcome.bad("duplicated", f"approval asked {asked} times, expected {expected_asks}")
    _compare_effects(outcome, base.effects, found)


def _compare_effects(outcome: Outcome, expected: probe.Effects, found: probe.Effects) -> None:
    for key in sorted(set(expected) | set(found)):
        want, got = expected.get(key, 0), found.get(key, 0)
        if key == "approvals_asked" or key.endswith(":failed") or want == got:
            continue
        if key.endswith((":started", ":unknown")):
            outcome.bad("stuck", f"{key}={got}: a ledger row needs an operator")
        elif isinstance(want, int) and isinstance(got, int):
            kind = "duplicated" if got > want else "lost"
            outcome.bad(kind, f"{key}: {got} instead of {want}", abs(got - want))
        else:
            outcome.bad("lost", f"{key}: {got!r} instead of {want!r}")
