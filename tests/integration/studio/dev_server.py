"""Start and stop `langgraph dev` on a free port for one test module."""

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


@contextmanager
def dev_server(cli: Path, env: dict[str, str], workdir: Path) -> Iterator[str]:
    """Run `langgraph dev` in `workdir` (its local state goes there); yield its URL."""
    port = _free_port()
    log_path = workdir / "langgraph-dev.log"
    quiet = {"LANGSMITH_TRACING": "false", "LANGGRAPH_CLI_NO_ANALYTICS": "1"}
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [str(cli), "dev", "--port", str(port), "--no-browser", "--no-reload",
             "--config", str(REPO_ROOT / "langgraph.json")],
            cwd=workdir, env={**env, **quiet}, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_ready(proc, url, log_path)
            yield url
        finally:
            _stop(proc)


def server_log(workdir: Path) -> str:
    path = workdir / "langgraph-dev.log"
    return path.read_text(errors="replace")[-6000:] if path.exists() else ""


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


def _stop(proc: subprocess.Popen[bytes]) -> None:
    # The CLI starts the server as a child; its own session holds both.
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)
