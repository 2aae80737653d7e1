"""The one table `make bench` prints: rows of measures, each against the baseline
measured in the same run, with the spread of its samples."""

from __future__ import annotations

import math
import os
import platform
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass(frozen=True)
class Spread:
    """The median, min and max of one side's samples."""

    median: float
    low: float
    high: float
    count: int

    @classmethod
    def of(cls, samples: Sequence[float]) -> Spread:
        if not samples:
            raise ValueError("a spread needs at least one sample")
        return cls(statistics.median(samples), min(samples), max(samples), len(samples))

    def ms(self) -> str:
        return f"{self.median:.2f} ms" if self.median < 10 else f"{self.median:.1f} ms"

    def range_ms(self) -> str:
        return f"min {self.low:.1f}, max {self.high:.1f}, n={self.count}"


def p95(samples: Sequence[float]) -> float:
    """The 95th percentile by the nearest-rank method (no interpolation)."""
    if not samples:
        raise ValueError("a percentile needs at least one sample")
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


@dataclass(frozen=True)
class Row:
    """One line of the table: what was measured, its value, the baseline's, their ratio."""

    measure: str
    value: str
    baseline: str = ""
    ratio: str = ""
    note: str = ""


def ratio(value: float, baseline: float) -> str:
    return f"{value / baseline:.2f}x" if baseline else "n/a"


COLUMNS = ("measure", "rolegraph", "baseline", "ratio", "spread / note")


def render(rows: Sequence[Row]) -> str:
    """The rows as an aligned plain-text table (also valid Markdown)."""
    cells = [COLUMNS, *((r.measure, r.value, r.baseline, r.ratio, r.note) for r in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(COLUMNS))]

    def line(row: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(cells[0]), rule, *(line(r) for r in cells[1:])])


def where_and_when() -> str:
    """The machine and the moment of a run, for the README to quote."""
    load = os.getloadavg()[0]
    return (
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} cores,"
        f" Python {platform.python_version()}, load average {load:.1f} at the end"
    )
