"""Prompt files under `nodes/prompts/`, loaded and checked once at start-up.

The harness prompts speak of mechanisms only; what a prompt says about the
business is the domain's own file (`Domain.prompts / "<name>.md"`), inserted
as plain text (`domain_prompt`).

Placeholders are written `{{name}}` so that JSON examples inside a prompt
need no escaping. Every prompt declares the placeholders it must contain; a
missing file or placeholder is a start-up error, not a bad first request.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from nodes.errors import PromptConfigError

PROMPT_DIR = Path(__file__).resolve().parent.parent / "prompts"
PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")

# prompt name -> placeholders it must contain (and may be rendered with).
REQUIRED: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "intake": frozenset({"domain", "intents", "slots", "example"}),
        "intake_request": frozenset({"text"}),
        "planner": frozenset({"roles", "skills"}),
        "planner_request": frozenset({"intents", "slots", "user_id", "draft"}),
        "compose": frozenset({"domain", "language"}),
        "compose_request": frozenset({"text", "results", "draft"}),
        "compose_revision": frozenset({"feedback"}),
        "summarise": frozenset({"limit"}),
        "summarise_request": frozenset({"data"}),
    }
)


@dataclass(frozen=True)
class Prompts:
    """Checked prompt templates by name."""

    templates: Mapping[str, str]

    def render(self, name: str, **values: str) -> str:
        """Fill `{{placeholders}}`; values are inserted verbatim, never re-parsed."""
        template = self.templates[name]
        missing = set(PLACEHOLDER.findall(template)) - set(values)
        if missing:
            raise PromptConfigError(f"prompt {name!r} rendered without {sorted(missing)}")
        # One pass over the template, so a value containing "{{x}}" stays literal.
        return PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def load_prompts(directory: Path | None = None) -> Prompts:
    """Read every required prompt from `directory` (default `nodes/prompts/`)."""
    base = directory or PROMPT_DIR
    templates = {name: _load_one(base, name, needs) for name, needs in REQUIRED.items()}
    return Prompts(templates=MappingProxyType(templates))


def _load_one(base: Path, name: str, needs: frozenset[str]) -> str:
    path = base / f"{name}.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PromptConfigError(
            f"prompt file {path} cannot be read ({exc.strerror}); restore it from the repository"
        ) from exc
    found = set(PLACEHOLDER.findall(text))
    if needs - found:
        raise PromptConfigError(
            f"prompt file {path} lacks placeholder(s) "
            f"{', '.join('{{' + p + '}}' for p in sorted(needs - found))}; add them back"
        )
    if found - needs:
        raise PromptConfigError(
            f"prompt file {path} has unknown placeholder(s) {sorted(found - needs)}; remove them"
        )
    return text


@lru_cache(maxsize=32)
def domain_prompt(directory: Path, name: str) -> str:
    """The domain's own text for prompt `name` (`<directory>/<name>.md`), read once."""
    path = directory / f"{name}.md"
    try:
        text = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise PromptConfigError(
            f"domain prompt file {path} cannot be read ({exc.strerror}); add it to the domain pack"
        ) from exc
    if PLACEHOLDER.search(text):
        raise PromptConfigError(
            f"domain prompt file {path} has a {{{{placeholder}}}}; domain prompts are plain text"
        )
    return text
