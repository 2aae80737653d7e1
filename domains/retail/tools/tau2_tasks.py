"""tau2 task files: the published `tasks.json`, `conformance_train.json`, and splits."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checkpoints.errors import DataFormatError, InvalidArgument

SPLIT_FILE = "split_tasks.json"


@dataclass(frozen=True)
class Action:
    """One ground-truth tool call (tool name without version suffix)."""

    name: str
    arguments: dict[str, Any]
    reference_error: bool | None = None


@dataclass(frozen=True)
class Tau2Task:
    task_id: str
    actions: tuple[Action, ...]
    expected_hash: str | None = None


def read_tasks(path: Path, split: str | None = None) -> list[Tau2Task]:
    """Tasks of a tasks file, optionally only those `split_tasks.json` beside it names."""
    tasks = [_task(raw) for raw in _raw_tasks(path)]
    if split is None:
        return tasks
    wanted = set(_split_ids(path.parent / SPLIT_FILE, split))
    return [task for task in tasks if task.task_id in wanted]


def _raw_tasks(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataFormatError(
            f"cannot read tasks file {path} ({exc}); pass a tau2 tasks JSON file"
        ) from exc
    raw = data.get("tasks") if isinstance(data, dict) else data
    if not isinstance(raw, list) or not all(isinstance(t, dict) and "id" in t for t in raw):
        raise DataFormatError(
            f"{path} holds no list of tasks with ids; pass tasks.json or conformance_train.json"
        )
    return raw


def _task(raw: dict[str, Any]) -> Tau2Task:
    if "actions" in raw:
        actions = raw["actions"]
    else:
        actions = (raw.get("evaluation_criteria") or {}).get("actions") or []
    return Tau2Task(
        task_id=str(raw["id"]),
        actions=tuple(
            Action(a["name"], dict(a.get("arguments") or {}), a.get("error")) for a in actions
        ),
        expected_hash=raw.get("expected_final_hash"),
    )


def _split_ids(path: Path, split: str) -> list[str]:
    try:
        splits = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataFormatError(f"--split needs {path} beside the tasks file ({exc})") from exc
    if split not in splits:
        raise InvalidArgument(f"split '{split}' not in {path}; use one of {', '.join(splits)}")
    return [str(task_id) for task_id in splits[split]]
