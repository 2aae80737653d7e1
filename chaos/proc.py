"""Run the CLI as a user would, and kill it with SIGKILL where the campaign says."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PROGRESS = "  · "
TIMEOUT_S = 150.0


@dataclass(frozen=True)
class Ran:
    """One finished (or killed) CLI process."""

    rc: int
    stdout: str
    stderr: str
    killed: bool = False
    timed_out: bool = False

    @property
    def traceback(self) -> bool:
        """A Python traceback reached the user: counted as a crash."""
        return "Traceback (most recent call last)" in self.stderr

    @property
    def one_line_error(self) -> bool:
        """Exit 2 with exactly one `rolegraph: error:` line, as the house style promises."""
        lines = [ln for ln in self.stderr.splitlines() if ln.startswith("rolegraph: error:")]
        return self.rc == 2 and len(lines) == 1 and not self.traceback

    def report(self) -> dict[str, Any] | None:
        """The `--json` object printed last, if any."""
        for line in reversed(self.stdout.strip().splitlines()):
            if line.startswith("{"):
                try:
                    value = json.loads(line)
                except json.JSONDecodeError:
                    return None
                return value if isinstance(value, dict) else None
        return None

    def brief(self) -> str:
        tail = (self.stderr.strip().splitlines() or [""])[-1]
        return f"rc={self.rc}{' killed' if self.killed else ''} {tail[:160]}"


def cli(env: dict[str, str], *args: str, stdin: str | None = None) -> Ran:
    """`python -m rolegraph_cli ARGS` to the end."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "rolegraph_cli", *args],
            env=env, input=stdin, capture_output=True, text=True, timeout=TIMEOUT_S,
        )  # fmt: skip
    except subprocess.TimeoutExpired as exc:
        return Ran(-9, _text(exc.stdout), _text(exc.stderr), killed=True, timed_out=True)
    return Ran(done.returncode, done.stdout, done.stderr)


def cli_killed_after(env: dict[str, str], lines: int, *args: str) -> Ran:
    """Run the CLI and SIGKILL it right after its `lines`-th progress line.

    Progress lines are printed after a node's update is streamed, i.e. at a
    node boundary. A process that ends first was not killed (`killed` False).
    """
    return cli_acting_after(env, lines, lambda p: p.send_signal(signal.SIGKILL), *args)


def cli_acting_after(
    env: dict[str, str], lines: int, action: Callable[[subprocess.Popen[str]], object], *args: str
) -> Ran:
    """Run the CLI and call `action(process)` once, right after its `lines`-th progress line."""
    with subprocess.Popen(
        [sys.executable, "-m", "rolegraph_cli", *args],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    ) as proc:  # fmt: skip
        assert proc.stdout is not None and proc.stderr is not None
        stderr = proc.stderr
        err: list[str] = []
        reader = threading.Thread(target=lambda: err.append(stderr.read()), daemon=True)
        reader.start()
        seen, out, acted = 0, [], False
        for line in proc.stdout:
            out.append(line)
            seen += line.startswith(PROGRESS)
            if seen >= lines and not acted:
                action(proc)
                acted = True
        rc = proc.wait(timeout=TIMEOUT_S)
        reader.join(timeout=10)
    return Ran(rc, "".join(out), "".join(err), killed=rc == -signal.SIGKILL)


def _text(value: str | bytes | None) -> str:
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    return value or ""
