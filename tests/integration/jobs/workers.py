"""`rolegraph worker` processes for the queue tests, and what they leave in the database."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from checkpoints.opening import Database

FAST_HEARTBEATS = {"ROLEGRAPH_WORKER_HEARTBEAT": "0.5", "ROLEGRAPH_WORKER_STALLED_AFTER": "3"}
"""A killed worker's jobs are taken over within seconds, not the default half minute."""
STOP_TIMEOUT_S = 60


def start_worker(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    """`python -m rolegraph_cli.main worker ARGS` in the background."""
    return subprocess.Popen(
        [sys.executable, "-m", "rolegraph_cli.main", "worker", *args],
        env={**FAST_HEARTBEATS, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def stop_worker(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    """SIGTERM (a graceful stop) and wait; (exit code, stdout, stderr)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=STOP_TIMEOUT_S)
    return proc.returncode, out, err


@contextmanager
def workers(
    env: dict[str, str], count: int = 1, *args: str
) -> Iterator[list[subprocess.Popen[str]]]:
    """`count` running workers, stopped (and checked for tracebacks) on exit."""
    procs = [start_worker(env, *args) for _ in range(count)]
    try:
        yield procs
    finally:
        for proc in procs:
            code, _out, err = stop_worker(proc)
            assert "Traceback" not in err, err
            assert code == 0, err


async def fetch_all(db: Database, sql: str, *params: Any) -> list[dict[str, Any]]:
    async with db.pool.connection() as conn:
        cur = await conn.execute(sql, params)
        return list(await cur.fetchall())


async def pick_order(db: Database, status: str) -> tuple[str, str]:
    """(order id, its customer) of the first order in `status` (reference data)."""
    rows = await fetch_all(
        db,
        "SELECT order_id, user_id FROM orders WHERE status = %s ORDER BY order_id LIMIT 1",
        status,
    )
    return rows[0]["order_id"], rows[0]["user_id"]
