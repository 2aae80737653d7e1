"""The benchmark table: percentiles, spreads, ratios and the rendered rows."""

from __future__ import annotations

import pytest

from benchmarks.table import Row, Spread, p95, ratio, render


def test_p95_is_the_nearest_rank() -> None:
    assert p95(list(range(1, 101))) == 95
    assert p95([3.0]) == 3.0
    assert p95([5, 1, 4, 2, 3]) == 5  # ceil(0.95 * 5) = 5th of the sorted samples
    with pytest.raises(ValueError, match="at least one"):
        p95([])


def test_a_spread_is_median_min_max_of_its_samples() -> None:
    spread = Spread.of([4.0, 1.0, 9.0, 2.0])
    assert (spread.median, spread.low, spread.high, spread.count) == (3.0, 1.0, 9.0, 4)
    assert spread.ms() == "3.00 ms" and Spread.of([12.34]).ms() == "12.3 ms"


def test_ratio_and_rendered_rows_line_up() -> None:
    assert ratio(3.0, 2.0) == "1.50x" and ratio(1.0, 0.0) == "n/a"
    text = render([Row("a request", "9.0 ms", "4.5 ms prebuilt", "2.00x", "n=30")])
    header, rule, row = text.splitlines()
    assert header.startswith("| measure") and set(rule) <= {"|", "-"}
    assert len(header) == len(rule) == len(row)
    assert [c.strip() for c in row.strip("|").split("|")] == [
        "a request",
        "9.0 ms",
        "4.5 ms prebuilt",
        "2.00x",
        "n=30",
    ]
