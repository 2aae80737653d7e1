"""`rolegraph worker [--concurrency N]`: run queued turns and the periodic jobs.

Any number of workers, on any machines, share the one database: each takes
turn jobs from the queue (jobs of one thread one after the other), continues
the turns of a worker that died, and runs outbox delivery and retention.
Ctrl-C or SIGTERM stops it once its running turns have finished.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from types import FrameType

from checkpoints.errors import InvalidArgument
from rolegraph_cli.common import run_command


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    worker = subparsers.add_parser("worker")
    worker.add_argument(
        "--concurrency",
        type=int,
        default=1,
        help="turns this worker runs at once (default 1; keep ROLEGRAPH_POOL_SIZE above it)",
    )
    worker.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    # A worker told to stop while it starts (an orchestrator scaling down, a
    # deploy) has taken no job: it stops at once, cleanly, instead of dying of the
    # signal. Installed by the command, not its parser: building the parser (as
    # `--help` and tests do) changes no process's signals. The queue's own
    # handlers take over once it runs.
    signal.signal(signal.SIGTERM, _stop_before_start)
    return run_command(lambda: _work(args.concurrency))


def _stop_before_start(signum: int, frame: FrameType | None) -> None:
    print("worker: stopped before taking any job", file=sys.stderr, flush=True)
    raise SystemExit(0)


async def _work(concurrency: int) -> int:
    if concurrency < 1:
        raise InvalidArgument(f"--concurrency must be at least 1, got {concurrency}")
    from checkpoints.jobs import WorkerSettings, open_queue
    from graphs.maintenance import MaintenanceSettings
    from graphs.worker_tasks import RUNTIME_KEY, WorkerRuntime, worker_tasks
    from rolegraph_cli.session import open_session

    settings = WorkerSettings.from_env(os.environ)
    maintenance = MaintenanceSettings.from_env(os.environ)
    async with open_session(quiet=True) as s, open_queue(s.db.pool, worker_tasks()) as queue:
        runtime = WorkerRuntime(s.db, s.ctx, s.graph, settings, maintenance)
        print(
            f"worker: running {concurrency} turn(s) at once on {s.db.target.location};"
            " Ctrl-C stops after the running turns",
            flush=True,
        )
        await queue.run_worker_async(
            concurrency=concurrency,
            additional_context={RUNTIME_KEY: runtime},
            update_heartbeat_interval=settings.heartbeat_s,
            stalled_worker_timeout=settings.stalled_after_s,
            delete_jobs="successful",
        )
    print("worker: stopped", flush=True)
    return 0
