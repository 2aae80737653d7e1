"""Fixtures for role tests: write small role directories under tmp_path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml


@pytest.fixture
def write_role(tmp_path: Path) -> Callable[..., Path]:
    """Write a role YAML file (a dict, or raw text) into tmp_path; return its path."""

    def write(data: dict[str, Any] | str, file_name: str | None = None) -> Path:
        if isinstance(data, dict):
            text = yaml.safe_dump(data, sort_keys=False)
            file_name = file_name or f"{data['name']}.yaml"
        else:
            text = data
        path = tmp_path / (file_name or "broken.yaml")
        path.write_text(text, encoding="utf-8")
        return path

    return write
