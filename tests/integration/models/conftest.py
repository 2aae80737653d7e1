"""Model integration tests share the seeded support fixtures."""

from __future__ import annotations

from tests.support_fixtures import retail_db, support

__all__ = ["retail_db", "support"]
