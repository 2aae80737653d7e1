"""Counting outcomes: one `Tally` per category, one summary line each."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

BAD = (
    "duplicated",
    "lost",
    "stuck",
    "crashes",
    "unauthorized",
    "leaks",
    "escalations",
)


@dataclass
class Outcome:
    """What one case did; a case with no bad count and `ok` False counts as stuck."""

    case: str
    ok: bool = True
    duplicated: int = 0
    lost: int = 0
    stuck: int = 0
    crashes: int = 0
    unauthorized: int = 0
    leaks: int = 0
    escalations: int = 0
    notes: list[str] = field(default_factory=list)

    def bad(self, kind: str, note: str, n: int = 1) -> None:
        """Count `n` of `kind` against this case, with a note saying why."""
        assert kind in BAD, kind
        # A case is stuck or not; every other kind counts each occurrence.
        total = 1 if kind == "stuck" else getattr(self, kind) + n
        setattr(self, kind, total)
        self.ok = False
        self.notes.append(f"{kind}: {note}")

    def fail(self, note: str) -> None:
        """The case did not end as expected, for a reason no bad count names."""
        self.ok = False
        self.notes.append(note)

    @property
    def recovered(self) -> bool:
        return self.ok and not any(getattr(self, k) for k in BAD)


@dataclass
class Tally:
    """Counts of one category."""

    category: str
    tried: int = 0
    recovered: int = 0
    duplicated: int = 0
    lost: int = 0
    stuck: int = 0
    crashes: int = 0
    unauthorized: int = 0
    leaks: int = 0
    escalations: int = 0
    failures: list[Outcome] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        """Fold one case in; an unexplained failure is counted as stuck."""
        if not outcome.ok and not any(getattr(outcome, k) for k in BAD):
            outcome.stuck = 1
        self.tried += 1
        self.recovered += outcome.recovered
        for kind in BAD:
            setattr(self, kind, getattr(self, kind) + getattr(outcome, kind))
        if not outcome.recovered:
            self.failures.append(outcome)

    def bad_total(self) -> int:
        return sum(getattr(self, k) for k in BAD)

    def line(self) -> str:
        """`kill9  tried=42 recovered=40 duplicated=1 ...`: the summary line."""
        counts = " ".join(
            f"{f.name}={getattr(self, f.name)}"
            for f in fields(self)
            if f.name not in ("category", "failures")
        )
        return f"{self.category:<11} {counts}"


def summary(tallies: list[Tally]) -> str:
    """The table `make chaos` prints last."""
    return "\n".join(t.line() for t in tallies)
