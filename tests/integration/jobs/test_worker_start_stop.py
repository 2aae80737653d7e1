"""A worker told to stop while it is still starting stops cleanly: it took no job."""

from __future__ import annotations

import os
import socket
import time

from tests.integration.jobs.workers import start_worker, stop_worker


def test_a_worker_stopped_while_it_starts_exits_cleanly() -> None:
    # A server that takes the connection and never answers: the worker is held in
    # its start-up (connecting) when the stop comes, past its imports.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        env = {**os.environ, "DATABASE_URL": f"postgresql://u:p@127.0.0.1:{port}/db"}
        proc = start_worker(env)
        time.sleep(3.0)
        assert proc.poll() is None, "the worker should still be connecting"
        code, out, err = stop_worker(proc)
    assert code == 0, err
    assert "Traceback" not in err
    assert "worker: stopped before taking any job" in err
    assert "running" not in out  # it never started taking jobs
