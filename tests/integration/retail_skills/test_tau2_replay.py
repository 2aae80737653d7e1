"""`rolegraph tau2 replay`: the train tasks through the skill runtime match the reference."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from checkpoints.database import DatabaseTarget
from domains.retail.tools.replay import replay_tasks
from domains.retail.tools.tau2_tasks import read_tasks


@pytest.mark.slow
async def test_all_train_tasks_reach_the_expected_hash(
    fresh_target: DatabaseTarget, tau2_dir: Path
) -> None:
    tasks = read_tasks(tau2_dir / "conformance_train.json")
    report = await replay_tasks(fresh_target, tasks, tau2_dir / "db.json")
    assert [t.task_id for t in report.tasks if not t.passed] == []
    assert report.passed == 74
    disagreeing = [(t.task_id, c.name) for t in report.tasks for c in t.calls if not c.agrees]
    assert disagreeing == []


def _subset(tau2_dir: Path, folder: Path, ids: list[str], *, corrupt: str | None = None) -> Path:
    data = json.loads((tau2_dir / "conformance_train.json").read_text())
    tasks = [t for t in data["tasks"] if t["id"] in ids]
    for task in tasks:
        if task["id"] == corrupt:
            task["expected_final_hash"] = "0" * 64
    path = folder / "tasks.json"
    path.write_text(json.dumps({"tasks": tasks}))
    (folder / "split_tasks.json").write_text(json.dumps({"train": ids[:2], "test": ids[2:]}))
    return path


def _cli(db_env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "rolegraph_cli.main", "tau2", "replay", *args]
    return subprocess.run(command, env=db_env, capture_output=True, text=True, timeout=300)


def test_cli_prints_hashes_and_counts(
    db_env: dict[str, str], tau2_dir: Path, tmp_path: Path
) -> None:
    path = _subset(tau2_dir, tmp_path, ["0", "5", "35"])  # "5" is a test task: absent here
    done = _cli(db_env, str(path), "--split", "train", "--json", "--db", str(tau2_dir / "db.json"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith(
        "task 0: a109be174767fde0ebb50fe3be37cdb2f1ce017fefd7bd29ea3e4d38bd3ac25a ok"
    )
    assert lines[-2] == "1 passed, 0 failed"
    assert json.loads(lines[-1]) == {
        "0": "a109be174767fde0ebb50fe3be37cdb2f1ce017fefd7bd29ea3e4d38bd3ac25a"
    }


def test_cli_reports_a_mismatch(db_env: dict[str, str], tau2_dir: Path, tmp_path: Path) -> None:
    path = _subset(tau2_dir, tmp_path, ["1", "35"], corrupt="35")
    done = _cli(db_env, str(path))
    assert done.returncode == 1
    assert "MISMATCH" in done.stdout.splitlines()[1]
    assert done.stdout.strip().splitlines()[-1] == "1 passed, 1 failed"


def test_cli_missing_database_is_one_line_error(db_env: dict[str, str], tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.json"
    tasks.write_text("[]")
    done = _cli(db_env, str(tasks), "--db", str(tmp_path / "nope.json"))
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "--db" in done.stderr
