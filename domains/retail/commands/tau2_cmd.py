"""`rolegraph tau2 replay`: tau2 ground-truth calls through the skill runtime."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from checkpoints.errors import InvalidArgument
from checkpoints.settings import PROJECT_ROOT
from domains.retail.tools.replay import TaskOutcome, replay_tasks
from domains.retail.tools.tau2_tasks import read_tasks
from rolegraph_cli.common import open_project_database, run_command

DEFAULT_DB = PROJECT_ROOT.parent / "shared" / "tau2" / "db.json"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tau2 = subparsers.add_parser("tau2")
    commands = tau2.add_subparsers(dest="tau2_command", required=True, metavar="SUBCOMMAND")
    replay = commands.add_parser(
        "replay", help="replay tasks' ground-truth calls; compare the final database hash"
    )
    replay.add_argument("tasks_file", type=Path, help="tasks.json or conformance_train.json")
    replay.add_argument("--split", choices=("train", "test", "base"), help="tasks of one split")
    replay.add_argument("--db", type=Path, default=DEFAULT_DB, help="tau2 db.json to start from")
    replay.add_argument("--json", action="store_true", help="last line: {task_id: final_hash}")
    replay.set_defaults(handler=lambda args: run_command(lambda: _replay(args)))


async def _replay(args: argparse.Namespace) -> int:
    if not args.db.is_file():
        raise InvalidArgument(f"tau2 database {args.db} not found; pass --db PATH to a db.json")
    tasks = read_tasks(args.tasks_file, args.split)
    if not tasks:
        raise InvalidArgument(f"no tasks in {args.tasks_file}; check the file and --split")

    def show(outcome: TaskOutcome) -> None:
        print(outcome.describe(), flush=True)

    async with open_project_database() as db:
        report = await replay_tasks(db.target, tasks, args.db, on_task=show)
    print(f"{report.passed} passed, {report.failed} failed")
    if args.json:
        print(json.dumps(report.hashes()))
    return 0 if report.failed == 0 else 1
