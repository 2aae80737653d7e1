"""Start, hard-kill and restart `langgraph dev` on a free port for one test module."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

REPO_ROOT = Path(__file__).resolve().parents[3]
LANGGRAPH = REPO_ROOT / ".venv" / "bin" / "langgraph"
READY_TIMEOUT_S = 180.0


def langgraph_cli() -> Path | None:
    """The `langgraph` executable of this checkout's virtualenv, if installed."""
    return LANGGRAPH if LANGGRAPH.exists() else None


class DevServer:
    """One `langgraph dev` process serving `langgraph.json`, run in `workdir`
    (its local state goes there), restartable on the same port."""

    def __init__(self, cli: Path, env: dict[str, str], workdir: Path) -> None:
        self._cli, self._workdir = cli, workdir
        # As `make studio` runs it: the dev server keeps no records of its own (its file
        # snapshot, up to 10 s old, would make a restart run again a run it saw running: the
        # customer's last message delivered twice, a second turn that withdraws the first's
        # approval). Threads live in the project's Postgres.
        self._env = {**env, "LANGSMITH_TRACING": "false", "LANGGRAPH_CLI_NO_ANALYTICS": "1",
                     "LANGGRAPH_DISABLE_FILE_PERSISTENCE": "true"}  # fmt: skip
        self._port = _free_port()
        self._proc: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{self._port}"
        self.log_path = workdir / "langgraph-dev.log"

    def start(self) -> None:
        """Start the server and wait until it answers `/ok`."""
        with self.log_path.open("ab") as log:
            self._proc = subprocess.Popen(
                [str(self._cli), "dev", "--port", str(self._port), "--no-browser", "--no-reload",
                 "--config", str(REPO_ROOT / "langgraph.json")],
                cwd=self._workdir, env=self._env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        _wait_ready(self._proc, self.url, self.log_path)

    def kill(self) -> None:
        """SIGKILL the server and its children, as a crash would."""
        self._signal(signal.SIGKILL, timeout=20)

    def stop(self) -> None:
        """Stop gracefully, forcing it after a grace period."""
        try:
            self._signal(signal.SIGTERM, timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()

    def log(self) -> str:
        """The end of the server's log, for assertion messages."""
        return self.log_path.read_text(errors="replace")[-6000:] if self.log_path.exists() else ""

    def _signal(self, sig: signal.Signals, timeout: float) -> None:
        # The CLI starts the server as a child; its own session holds both.
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return
        os.killpg(proc.pid, sig)
        proc.wait(timeout=timeout)


@contextmanager
def dev_server(cli: Path, env: dict[str, str], workdir: Path) -> Iterator[DevServer]:
    """A started `DevServer`, stopped afterwards."""
    server = DevServer(cli, env, workdir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_ready(proc: subprocess.Popen[bytes], url: str, log_path: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(
                f"langgraph dev exited with {proc.returncode}:\n{log_path.read_text()[-6000:]}"
            )
        try:
            if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"langgraph dev not ready in {READY_TIMEOUT_S}s:\n{log_path.read_text()}")
