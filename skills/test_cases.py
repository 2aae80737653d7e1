"""The format of a skill package's `test_cases/*.json` (see docs/writing-a-domain.md and domains/retail/catalog/README.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from skills.errors import SkillLoadError


class SkillTestCase(BaseModel):
    """One input and whether `validate_input` must accept it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    kind: Literal["normal", "boundary", "malicious"]
    args: dict[str, Any]
    expect: Literal["valid", "invalid"]


class SkillTestCaseFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    cases: tuple[SkillTestCase, ...]


def case_files(package_dir: Path) -> list[Path]:
    """The package's case files, in name order."""
    return sorted((package_dir / "test_cases").glob("*.json"))


def load_case_file(path: Path) -> SkillTestCaseFile:
    """Parse one case file; a malformed one is a `SkillLoadError` naming it."""
    try:
        return SkillTestCaseFile.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError, ValidationError) as exc:
        first = str(exc).strip().splitlines()[0]
        raise SkillLoadError(
            f"skill package {path.parent.parent.name}: test case file {path.name} is invalid"
            f" ({first}); see domains/retail/catalog/README.md for the format"
        ) from exc
