"""CI runs `make check`, and `make check` is everything people are told it is."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNTIME_PACKAGES = ("checkpoints", "skills", "nodes", "graphs", "rolegraph_cli", "domains")


def _recipe(target: str) -> list[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    body = re.search(rf"^{target}:[^\n]*\n((?:\t[^\n]*\n)+)", text, re.M)
    assert body, f"no `{target}` target in the Makefile"
    return [line.strip() for line in body.group(1).splitlines()]


def test_ci_runs_make_check_which_includes_make_test() -> None:
    commands = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith(("#", "set ", "cd "))
    ]
    assert commands == ["make check"]
    check = _recipe("check")
    assert check[-1] == "$(MAKE) test", "make check must end by running make test itself"
    assert _recipe("test") == ["$(PYTEST)"]
    for tool in ("ruff format --check .", "ruff check .", "mypy", "lint-imports"):
        assert any(line.endswith(tool) for line in check), tool


def test_types_are_strict_and_lint_catches_blind_excepts_and_complexity() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    strict = {
        module.removesuffix(".*")
        for override in config["tool"]["mypy"]["overrides"]
        if override.get("strict")
        for module in override["module"]
    }
    assert set(RUNTIME_PACKAGES) <= strict
    lint = config["tool"]["ruff"]["lint"]
    assert {"BLE", "C90"} <= set(lint["select"])
    assert lint["mccabe"]["max-complexity"] <= 12


def test_import_contracts_keep_the_driver_and_the_domains_out_of_the_harness() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    forbidden = {
        tuple(c["forbidden_modules"]): set(c["source_modules"])
        for c in config["tool"]["importlinter"]["contracts"]
        if c["type"] == "forbidden"
    }
    harness = {"graphs", "nodes", "skills", "rolegraph_cli"}
    assert harness <= forbidden[("psycopg", "psycopg_pool")]
    assert harness | {"checkpoints"} <= forbidden[("domains",)]
