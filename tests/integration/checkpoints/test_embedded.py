"""The embedded server is shared between processes and survives a crash."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from checkpoints.embedded import embedded_pid

_PRINT_URL_AND_PID = (
    "from pathlib import Path; import sys;"
    "from checkpoints.embedded import embedded_url, embedded_pid;"
    "d = Path(sys.argv[1]); url = embedded_url(d); print(url); print(embedded_pid(d))"
)


def _attach(data_dir: Path) -> tuple[str, int]:
    out = subprocess.run(
        [sys.executable, "-c", _PRINT_URL_AND_PID, str(data_dir)],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout.split()
    return out[0], int(out[1])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def data_dir(tmp_path: Path):  # type: ignore[no-untyped-def]
    if os.environ.get("DATABASE_URL"):
        pytest.skip("embedded server tests do not apply when DATABASE_URL is set")
    yield tmp_path
    pid = embedded_pid(tmp_path)
    if pid and _alive(pid):
        os.kill(pid, signal.SIGQUIT)


def test_second_process_attaches_to_the_running_server(data_dir: Path) -> None:
    url_a, pid_a = _attach(data_dir)
    url_b, pid_b = _attach(data_dir)
    assert pid_a == pid_b
    assert url_a == url_b
    assert _alive(pid_a)


def test_crashed_server_with_stale_pid_file_is_restarted(data_dir: Path) -> None:
    _, pid = _attach(data_dir)
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (data_dir / "pgdata" / "postmaster.pid").exists()  # left behind by the crash
    _, new_pid = _attach(data_dir)
    assert new_pid != pid
    assert _alive(new_pid)
