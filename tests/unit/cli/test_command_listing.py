"""`rolegraph --help` lists every command without importing any of them."""

from __future__ import annotations

import importlib

import pytest

from nodes.packs import pack_commands
from rolegraph_cli.commands import HARNESS_COMMANDS
from rolegraph_cli.main import build_parser
from tests.cli import LAZY, loaded, modules_after

# What a command's module pulls in; listing commands must need none of it.
HEAVY = (
    *("langgraph", "langchain_core", "langsmith", "psycopg", "pydantic", "numpy", "yaml"),
    *("opentelemetry", "domains.retail.pack", *LAZY),
)


def _modules_after(argv: list[str], env: dict[str, str] | None = None) -> set[str]:
    """The modules a fresh interpreter holds after `main(argv)`, which must exit 0."""
    return modules_after(argv, env)[0]


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m in HEAVY)


def test_help_and_version_import_no_command_module() -> None:
    for argv in (["--help"], ["--version"]):
        assert _heavy(_modules_after(argv)) == []


def test_a_chosen_command_imports_its_module_and_only_its_own() -> None:
    modules = _modules_after(["db", "--help"])
    assert "rolegraph_cli.db_cmd" in modules
    assert "rolegraph_cli.support_cmd" not in modules


def test_a_turn_s_code_loads_nothing_only_some_turns_or_commands_need() -> None:
    modules = _modules_after(["run", "--help"])
    assert "graphs.api" in modules
    assert loaded(modules, LAZY) == []


def test_a_turn_s_code_loads_no_mcp_sdk_when_no_catalog_uses_it() -> None:
    modules = _modules_after(["run", "--help"])
    assert "graphs.api" in modules
    assert sorted(m for m in modules if m == "mcp" or m.startswith("mcp.")) == []


@pytest.mark.parametrize("command", [*HARNESS_COMMANDS, *pack_commands()], ids=lambda c: c.name)
def test_every_listed_command_is_built_by_the_module_the_table_names(command: object) -> None:
    name = command.name  # type: ignore[attr-defined]
    parser = build_parser([name])
    chosen = parser._subparsers._group_actions[0].choices[name]  # type: ignore[union-attr]
    assert chosen.get_default("handler") is not None or chosen._subparsers is not None
    assert chosen.description == command.help  # type: ignore[attr-defined]
    assert importlib.import_module(command.module)  # type: ignore[attr-defined]


def test_the_help_lists_the_harness_and_the_packs_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        build_parser(["--help"]).parse_args(["--help"])
    listed = capsys.readouterr().out
    for command in (*HARNESS_COMMANDS, *pack_commands()):
        assert f"    {command.name}" in listed


def test_another_pack_lists_its_own_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROLEGRAPH_DOMAIN", "library")
    assert [c.name for c in pack_commands()] == ["data"]
    assert "tau2" not in build_parser([])._subparsers._group_actions[0].choices  # type: ignore[union-attr]
