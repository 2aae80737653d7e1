"""Prompt files: loaded and checked at start-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from nodes.errors import PromptConfigError
from nodes.models.prompts import PROMPT_DIR, REQUIRED, domain_prompt, load_prompts


def _copy_prompts(tmp_path: Path) -> Path:
    for name in REQUIRED:
        (tmp_path / f"{name}.md").write_text((PROMPT_DIR / f"{name}.md").read_text())
    return tmp_path


def test_shipped_prompts_load_and_render() -> None:
    prompts = load_prompts()
    system = prompts.render(
        "intake", domain="A loans desk.", intents="- renew", slots="- loan_ids", example="{}"
    )
    assert system.startswith("A loans desk.") and "- renew" in system and "{{" not in system
    assert "hello" in prompts.render("intake_request", text="hello")


def test_missing_prompt_file_fails_at_start_up(tmp_path: Path) -> None:
    _copy_prompts(tmp_path)
    (tmp_path / "intake.md").unlink()
    with pytest.raises(PromptConfigError, match=r"intake\.md"):
        load_prompts(tmp_path)


def test_missing_placeholder_fails_at_start_up(tmp_path: Path) -> None:
    _copy_prompts(tmp_path)
    path = tmp_path / "intake_request.md"
    path.write_text(path.read_text().replace("{{text}}", ""))
    with pytest.raises(PromptConfigError, match=r"\{\{text\}\}"):
        load_prompts(tmp_path)


def test_unknown_placeholder_fails_at_start_up(tmp_path: Path) -> None:
    _copy_prompts(tmp_path)
    path = tmp_path / "intake.md"
    path.write_text(path.read_text() + "\n{{secret}}\n")
    with pytest.raises(PromptConfigError, match="secret"):
        load_prompts(tmp_path)


def test_values_are_inserted_verbatim_not_reparsed() -> None:
    out = load_prompts().render("intake_request", text="say {{text}} and {{intents}}")
    assert "say {{text}} and {{intents}}" in out


def test_a_domain_prompt_is_plain_text_read_from_the_pack(tmp_path: Path) -> None:
    (tmp_path / "intake.md").write_text("You read messages to a loans desk.\n")
    assert domain_prompt(tmp_path, "intake") == "You read messages to a loans desk."
    with pytest.raises(PromptConfigError, match=r"planner\.md.*add it to the domain pack"):
        domain_prompt(tmp_path, "planner")
    (tmp_path / "odd.md").write_text("Hello {{intents}}")
    with pytest.raises(PromptConfigError, match="plain text"):
        domain_prompt(tmp_path, "odd")
