"""`RuntimeContext`: the concrete `SkillContext` executors receive."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class RuntimeContext:
    """Run-scoped dependencies for executors: built at an entry point, never global."""

    pool: Any
    user_id: str | None = None
    clock: Callable[[], datetime] = utc_now
    settings: Mapping[str, str] = field(default_factory=dict)
    # Set by the idempotency ledger for side-effecting calls, so an executor
    # that hands work to another system (the SMTP outbox) can reuse the key.
    idempotency_key: str | None = None

    def now(self) -> datetime:
        return self.clock()

    def for_user(self, user_id: str | None) -> RuntimeContext:
        """The same dependencies on behalf of another user."""
        return replace(self, user_id=user_id)
