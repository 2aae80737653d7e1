"""Model integration tests share the seeded support fixtures."""

from __future__ import annotations

from tests.openai_stub import stub
from tests.support_fixtures import retail_db, support

__all__ = ["retail_db", "stub", "support"]
