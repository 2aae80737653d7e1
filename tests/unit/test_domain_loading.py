"""Choosing a domain pack: by name, by module, and what a wrong choice says."""

from __future__ import annotations

import pytest

from checkpoints.errors import ConfigurationError
from nodes.domain import load_domain
from rolegraph_cli.main import main


def test_the_default_pack_is_retail_and_a_bare_name_is_a_pack_under_domains() -> None:
    assert load_domain(env={}).name == "retail"
    assert load_domain(env={"ROLEGRAPH_DOMAIN": "library"}).name == "library"
    assert load_domain("domains.library", env={"ROLEGRAPH_DOMAIN": "retail"}).name == "library"


def test_a_module_without_a_domain_is_refused_by_name() -> None:
    with pytest.raises(ConfigurationError, match=r"module nodes\.contracts has no DOMAIN"):
        load_domain("nodes.contracts")


def test_the_cli_reports_an_unknown_pack_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ROLEGRAPH_DOMAIN", "no_such_pack")
    assert main(["--help"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rolegraph: error: ROLEGRAPH_DOMAIN='no_such_pack'")
    assert "\n" not in err
