"""A small tau2-format document of the project's own (tests/fixtures/retail_mini.json)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

MINI_PATH = Path(__file__).resolve().parents[3] / "fixtures" / "retail_mini.json"
_MINI: dict[str, Any] = json.loads(MINI_PATH.read_text(encoding="utf-8"))


@pytest.fixture
def mini_doc() -> dict[str, Any]:
    """A fresh copy of the mini document, free to mutate."""
    return copy.deepcopy(_MINI)
