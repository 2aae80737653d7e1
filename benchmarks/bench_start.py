"""How long a `rolegraph` process takes to start: `--help`, and loading what a
turn needs, against a bare interpreter measured in the same run.

Each sample starts a fresh process; the three kinds alternate (interleaved)
so machine noise falls on all of them alike. Prints medians, min and max.

    .venv/bin/python -m benchmarks.bench_start [SAMPLES]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

CLI = [sys.executable, "-m", "rolegraph_cli.main"]
KINDS = {
    "python -c pass (the floor)": [sys.executable, "-c", "pass"],
    "rolegraph --help": [*CLI, "--help"],
    "rolegraph run --help (loads a turn's code)": [*CLI, "run", "--help"],
}


def main(samples: int) -> None:
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for n in range(samples + 1):
        for kind, command in KINDS.items():
            start = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            if n:  # the first round warms the page cache
                times[kind].append((time.perf_counter() - start) * 1000)
    print(f"process start, {samples} samples each:")
    for kind, values in times.items():
        print(
            f"  {kind:44} median {statistics.median(values):7.1f} ms"
            f"  (min {min(values):.1f}, max {max(values):.1f})"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
