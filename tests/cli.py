"""Run the `rolegraph` CLI in a subprocess, as a user would."""

from __future__ import annotations

import subprocess
import sys


def run_cli(
    env: dict[str, str], *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rolegraph_cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
    )
