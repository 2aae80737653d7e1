"""Database faults: terminated connections (idle and active), pool waits, configuration.

Run against the real server: connections are cut with `pg_terminate_backend`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from psycopg_pool import PoolTimeout

from checkpoints.database import DatabaseTarget
from checkpoints.opening import Database, open_database
from checkpoints.pool import database_fault
from checkpoints.settings import DEFAULT_DATA_DIR, PROJECT_ROOT, DatabaseSettings, PoolSettings
from graphs.api import run_request
from tests.cli import run_cli
from tests.integration.graph.helpers import user_with_orders
from tests.support_fixtures import Support


def _terminate_others(target: DatabaseTarget) -> int:
    """Cut every connection to the test database but this one, and wait until each
    server process has gone (as an idle connection cut earlier would have)."""
    with psycopg.connect(target.url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return len(rows)


def _one_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("rolegraph: error:")]
    assert len(errors) == 1, stderr
    return errors[0]


async def test_idle_connections_cut_by_the_server_are_replaced(
    support: Support, fresh_target: DatabaseTarget
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=30)
    first = await run_request(support.graph, support.ctx, text=f"status of {order}?", user_id=user)
    assert first.status == "completed"
    assert _terminate_others(fresh_target) >= 1  # the pool's idle connections
    again = await run_request(support.graph, support.ctx, text=f"status of {order}?", user_id=user)
    assert again.status == "completed" and order in again.answer


async def test_pool_connections_never_prepare_statements(db: Database) -> None:
    async with db.pool.connection() as conn:
        assert conn.prepare_threshold is None
        for _ in range(8):
            await conn.execute("SELECT count(*) FROM audit_events WHERE audit_id = %s", ("x",))
        cur = await conn.execute("SELECT count(*) AS n FROM pg_prepared_statements")
        row = await cur.fetchone()
    assert row is not None and row["n"] == 0


async def test_pool_size_and_wait_come_from_settings(fresh_target: DatabaseTarget) -> None:
    settings = DatabaseSettings(None, Path("/unused"), PoolSettings(size=1, timeout_s=0.2))
    async with open_database(settings, target=fresh_target) as db:
        assert db.pool.max_size == 1
        async with db.pool.connection():
            with pytest.raises(PoolTimeout) as caught:
                async with db.pool.connection():
                    pass
    message = str(database_fault(caught.value))
    assert "ROLEGRAPH_POOL_SIZE" in message and "\n" not in message


def test_pool_settings_are_read_and_checked() -> None:
    env = {"ROLEGRAPH_POOL_SIZE": "3", "ROLEGRAPH_POOL_TIMEOUT": "2.5"}
    assert DatabaseSettings.from_env(env).pool == PoolSettings(size=3, timeout_s=2.5)
    assert DatabaseSettings.from_env({}).pool == PoolSettings()


@pytest.mark.parametrize(
    ("name", "value"), [("ROLEGRAPH_POOL_SIZE", "0"), ("ROLEGRAPH_POOL_TIMEOUT", "soon")]
)
def test_a_bad_pool_setting_is_one_line(db_env: dict[str, str], name: str, value: str) -> None:
    result = run_cli({**db_env, name: value}, "db", "status")
    assert result.returncode == 2
    assert name in _one_error_line(result.stderr)


def test_the_default_data_dir_is_the_projects_wherever_we_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert DatabaseSettings.from_env({}).data_dir == DEFAULT_DATA_DIR == PROJECT_ROOT / ".rolegraph"
    relative = DatabaseSettings.from_env({"ROLEGRAPH_DATA_DIR": "here"}).data_dir
    assert relative == tmp_path.resolve() / "here"  # an explicit relative path is the user's


def test_an_unusable_data_dir_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    result = run_cli({**env, "ROLEGRAPH_DATA_DIR": str(blocker / "data")}, "db", "status")
    assert result.returncode == 2
    assert "ROLEGRAPH_DATA_DIR" in _one_error_line(result.stderr)


def test_connections_cut_mid_run_end_in_one_line_or_an_answer(
    retail_db: Database, db_env: dict[str, str], fresh_target: DatabaseTarget
) -> None:
    with psycopg.connect(fresh_target.url) as conn:
        row = conn.execute(
            "SELECT user_id, order_id FROM orders WHERE status = 'processed' ORDER BY order_id"
            " OFFSET 31 LIMIT 1"
        ).fetchone()
    assert row is not None
    user, order = row
    proc = subprocess.Popen(
        [sys.executable, "-m", "rolegraph_cli", "run", "--user-id", user,
         f"where is my package for {order}? send me an email too"],
        env=db_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:  # start cutting once the graph is running
        seen.append(line)
        if "intake[" in line:
            break
    cuts = 0
    while proc.poll() is None:
        cuts += _terminate_others(fresh_target)
        time.sleep(0.02)
    _, err = proc.communicate(timeout=60)
    assert cuts >= 1, "the run ended before any connection was cut"
    assert proc.returncode in (0, 2), (proc.returncode, err)
    if proc.returncode == 2:
        # Connections cut faster than the pool replaces them end either way.
        line = _one_error_line(err)
        assert (
            "lost the database connection" in line or "no database connection became free" in line
        )
    else:
        assert "Traceback" not in err
    listed = run_cli(db_env, "threads", "list")
    assert listed.returncode == 0, listed.stderr


def test_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rolegraph_cli", "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0 and result.stdout.startswith("rolegraph 0.")


def test_ctrl_c_at_the_chat_prompt_exits_without_a_traceback(db_env: dict[str, str]) -> None:
    with subprocess.Popen(
        [sys.executable, "-u", "-m", "rolegraph_cli", "chat", "--user-id", "anyone"],
        env=db_env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    ) as proc:  # fmt: skip
        assert proc.stdout is not None and proc.stderr is not None
        shown = ""
        while not shown.endswith("you> "):  # the prompt: chat now waits in input()
            char = proc.stdout.read(1)
            assert char, proc.stderr.read()
            shown += char
        _wait_until_blocked_reading_stdin(proc.pid)
        proc.send_signal(signal.SIGINT)
        # stdin stays open, as at a terminal: the process must end on the signal alone.
        proc.wait(timeout=60)
        err = proc.stderr.read()
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


def _wait_until_blocked_reading_stdin(pid: int) -> None:
    # A signal that lands between the prompt and the read() would be seen
    # only after the read returns (CPython checks signals between calls); a
    # person presses Ctrl-C while the read waits, so the test does too.
    syscall = Path(f"/proc/{pid}/syscall")
    if not syscall.exists():
        return
    for _ in range(3000):
        if syscall.read_text().startswith("0 0x0 "):  # read(0, ...) on x86-64
            return
        time.sleep(0.01)
