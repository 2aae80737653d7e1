"""The pure tau2 operations reproduce the reference outputs, errors and hashes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tau2_memory_env import MemoryRetail, canonical_db, load_canonical

from domains.retail.tools.calculator import calculate
from skills.errors import DomainError

TRUNCATED_AT = 2000


@pytest.fixture(scope="module")
def conformance(tau2_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((tau2_dir / "conformance_train.json").read_text())
    return data


def _expected(output: Any) -> Any:
    if not isinstance(output, str):
        return output
    try:
        return json.loads(output)
    except json.JSONDecodeError:
        return output


def _same_output(got: Any, recorded: str) -> bool:
    """Equal as JSON; outputs longer than 2000 characters were recorded truncated."""
    if len(recorded) >= TRUNCATED_AT:
        text = got if isinstance(got, str) else json.dumps(got)
        return text.startswith(recorded)
    return bool(_expected(got) == _expected(recorded))


def _replay(env: MemoryRetail, task: dict[str, Any]) -> list[str]:
    problems = []
    for action in task["actions"]:
        name, args = action["name"], action["arguments"]
        try:
            got = env.call(name, args)
        except DomainError as exc:
            if not action["error"]:
                problems.append(f"{name} failed: {exc}")
            elif str(exc) != action["output"]:
                problems.append(f"{name} error {exc!s} != {action['output']}")
            continue
        if action["error"]:
            problems.append(f"{name} succeeded but the reference failed: {action['output']}")
        elif not _same_output(got, action["output"]):
            problems.append(f"{name} output differs")
    return problems


def test_initial_canonical_hash(tau2_dir: Path, conformance: dict[str, Any]) -> None:
    env = MemoryRetail(load_canonical(tau2_dir / "db.json"))
    assert env.db_hash() == conformance["initial_hash"]


def test_every_train_task_matches_outputs_and_hash(
    tau2_dir: Path, conformance: dict[str, Any]
) -> None:
    failures = {}
    pristine = (tau2_dir / "db.json").read_text()
    for task in conformance["tasks"]:
        env = MemoryRetail(load_canonical_text(pristine))
        problems = _replay(env, task)
        if env.db_hash() != task["expected_final_hash"]:
            problems.append("final hash differs")
        if problems:
            failures[task["id"]] = problems
    assert failures == {}
    assert len(conformance["tasks"]) == 74


def test_changed_records_match(tau2_dir: Path, conformance: dict[str, Any]) -> None:
    pristine = (tau2_dir / "db.json").read_text()
    task = next(t for t in conformance["tasks"] if t["changed_records"].get("users"))
    env = MemoryRetail(load_canonical_text(pristine))
    _replay(env, task)
    for table, records in task["changed_records"].items():
        for key, record in records.items():
            assert env.db[table][key] == record


def load_canonical_text(text: str) -> dict[str, Any]:
    return canonical_db(json.loads(text))


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("3131.1 + 4777.75 + 367.38", "8276.23"),
        ("135.24 - 153.23", "-17.99"),
        ("2 + 2", "4.0"),
        ("10 / 3", "3.33"),
        ("-(1 + 2) * 3", "-9.0"),
        ("0.1 + 0.2", "0.3"),
    ],
)
def test_calculate_matches_python_arithmetic(expression: str, expected: str) -> None:
    assert calculate(expression) == expected


@pytest.mark.parametrize(
    "expression",
    ["__import__('os')", "2 ** 3", "4 // 2", "1 / 0", "1 2", "(1", "", "1e5", "1_000", "x"],
)
def test_calculate_refuses_anything_else(expression: str) -> None:
    with pytest.raises(DomainError):
        calculate(expression)
