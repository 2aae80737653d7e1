"""How long a `rolegraph` process takes to start: `--help`, and loading what a
turn needs, against a bare interpreter measured in the same run.

Each sample starts a fresh process; the three kinds alternate (interleaved)
so machine noise falls on all of them alike. Prints medians, min and max.

    .venv/bin/python -m benchmarks.bench_start [SAMPLES]
"""

from __future__ import annotations

import subprocess
import sys
import time

from benchmarks.table import Row, Spread, ratio, render

CLI = [sys.executable, "-m", "rolegraph_cli.main"]
KINDS = {
    "python -c pass (the floor)": [sys.executable, "-c", "pass"],
    "rolegraph --help": [*CLI, "--help"],
    "rolegraph run --help (loads a turn's code)": [*CLI, "run", "--help"],
}


def measure(samples: int) -> list[Row]:
    """One row per `rolegraph` command against the bare interpreter."""
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for n in range(samples + 1):
        for kind, command in KINDS.items():
            start = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            if n:  # the first round warms the page cache
                times[kind].append((time.perf_counter() - start) * 1000)
    floor_name, *commands = KINDS
    floor = Spread.of(times[floor_name])
    rows = []
    for kind in commands:
        took = Spread.of(times[kind])
        rows.append(
            Row(
                f"process start: {kind}",
                took.ms(),
                f"{floor.ms()} {floor_name}",
                ratio(took.median, floor.median),
                f"{took.range_ms()}; {took.median - floor.median:.0f} ms over the floor",
            )
        )
    return rows


def main(samples: int) -> None:
    print(render(measure(samples)))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
