"""`RuntimeContext`: the concrete `SkillContext` executors receive."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from checkpoints import ledger
from checkpoints.opening import Pool
from skills.faults import crash_point


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class RuntimeContext:
    """Run-scoped dependencies for executors: built at an entry point, never global."""

    pool: Pool
    user_id: str | None = None
    clock: Callable[[], datetime] = utc_now
    settings: Mapping[str, str] = field(default_factory=dict)
    # Set by the idempotency ledger for side-effecting calls, so an executor
    # that hands work to another system (the SMTP outbox) can reuse the key.
    idempotency_key: str | None = None
    # Set with the key: checks a payload against the skill's result model, so
    # a write records (and commits) only a result its contract accepts.
    check_result: Callable[[Any], None] | None = None

    def now(self) -> datetime:
        return self.clock()

    async def recorded_effect(self, conn: Any) -> tuple[bool, Any]:
        """(True, payload) when this call's effect already committed under its key.

        Call it first inside the write's transaction: it locks the ledger row,
        so of an attempt and its retry only one can ever apply the change.
        """
        if self.idempotency_key is None:
            return False, None
        entry = await ledger.get_entry(conn, self.idempotency_key, for_update=True)
        if entry is not None and entry.state == "succeeded":
            return True, entry.result
        return False, None

    async def record_effect(self, conn: Any, payload: Any) -> None:
        """Record the ledger completion on `conn`, inside the caller's transaction.

        A database write calls this just before it commits, so the change and
        the record that it happened are one commit: a crash leaves both or
        neither, and a `started` ledger row proves the change absent.
        """
        if self.check_result is not None:
            self.check_result(payload)  # raises inside the transaction: nothing commits
        if self.idempotency_key is not None:
            await ledger.finish(conn, self.idempotency_key, "succeeded", payload)
        crash_point("before_effect_commit")  # both written, neither committed

    def for_user(self, user_id: str | None) -> RuntimeContext:
        """The same dependencies on behalf of another user."""
        return replace(self, user_id=user_id)
