"""Every model integration test: a scripted chat model must be used exactly as scripted."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.chat import check_scripts_consumed
from tests.support_fixtures import retail_db, support


@pytest.fixture(autouse=True)
def _every_script_consumed() -> Iterator[None]:
    yield from check_scripts_consumed()


__all__ = ["retail_db", "support"]
