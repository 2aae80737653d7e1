"""The embedded server restarted in the middle of a run: an answer, or one line and exit 2."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from checkpoints.embedded import PGDATA_DIRNAME, _import_pgserver, embedded_pid, embedded_url
from tests.cli import run_cli


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[tuple[dict[str, str], Path]]:
    """A private embedded server (restarting the shared one would disturb other tests)."""
    if os.environ.get("DATABASE_URL"):
        pytest.skip("embedded server tests do not apply when DATABASE_URL is set")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["ROLEGRAPH_DATA_DIR"] = str(tmp_path)
    yield env, tmp_path
    pid = embedded_pid(tmp_path)
    if pid:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGQUIT)


def _restart(data_dir: Path) -> None:
    pgserver = _import_pgserver()
    pgdata = (data_dir / PGDATA_DIRNAME).resolve()
    server = pgserver.get_server(pgdata, cleanup_mode=None)
    pgserver.pgexec.pgexec(
        "pg_ctl", ("-D", str(pgdata), "-m", "fast", "-w", "restart"),
        bin_path=server.bin_path, user=server.system_user,
    )  # fmt: skip


def test_a_restart_mid_run_ends_in_an_answer_or_one_line(
    own_server: tuple[dict[str, str], Path],
) -> None:
    env, data_dir = own_server
    assert run_cli(env, "data", "generate").returncode == 0
    with psycopg.connect(embedded_url(data_dir)) as conn:
        row = conn.execute(
            "SELECT user_id, order_id FROM orders WHERE status = 'processed' ORDER BY order_id LIMIT 1"
        ).fetchone()
    assert row is not None
    before = embedded_pid(data_dir)
    with subprocess.Popen(
        [sys.executable, "-m", "rolegraph_cli", "run", "--user-id", row[0],
         f"where is my package for {row[1]}? send me an email too"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    ) as proc:  # fmt: skip
        assert proc.stdout is not None and proc.stderr is not None
        for line in proc.stdout:
            if "intake[" in line:
                break
        _restart(data_dir)
        proc.wait(timeout=120)
        err = proc.stderr.read()
    assert embedded_pid(data_dir) != before, "the server was not restarted"
    assert "Traceback" not in err, err
    assert proc.returncode in (0, 2), (proc.returncode, err)
    if proc.returncode == 2:
        errors = [line for line in err.splitlines() if line.startswith("rolegraph: error:")]
        assert len(errors) == 1 and "database" in errors[0], err
    after = run_cli(env, "threads", "list")
    assert after.returncode == 0, after.stderr
