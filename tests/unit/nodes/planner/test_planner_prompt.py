"""The planner prompt: generic rules from the harness, the desk from the domain."""

from __future__ import annotations

from pathlib import Path

import pytest

from nodes.errors import PromptConfigError
from nodes.models.prompts import PROMPT_DIR
from nodes.planner.model_plan import domain_brief


def test_the_harness_prompt_names_no_business() -> None:
    text = (PROMPT_DIR / "planner.md").read_text(encoding="utf-8").lower()
    for word in ("retail", "order", "#w", "_v1", "cancel", "shipment"):
        assert word not in text.replace("reorder", ""), word


def test_the_domain_brief_comes_from_the_pack(tmp_path: Path) -> None:
    (tmp_path / "planner.md").write_text("You plan for a flight-change desk.\n", encoding="utf-8")
    assert domain_brief(tmp_path) == "You plan for a flight-change desk."
    with pytest.raises(PromptConfigError, match="add it to the domain pack"):
        domain_brief(tmp_path / "missing")
