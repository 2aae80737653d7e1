"""Builders shared by the skill runtime integration tests."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from checkpoints.opening import Database
from skills.contract import Approval, SkillRequest

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


@dataclass(frozen=True)
class Role:
    name: str
    execute: frozenset[str] = frozenset()
    deny: frozenset[str] = frozenset()
    read: frozenset[str] = frozenset()
    context: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def required_context(self, skill_id: str) -> tuple[str, ...]:
        return dict(self.context).get(skill_id, ())


ALL_FIXTURE_SKILLS = frozenset(
    {
        "echo_v1",
        "scripted_v1",
        "http_fetch_v1",
        "counter_v1",
        "two_step_v1",
        "send_notification_v1",
        "drop_everything_v1",
        "primary_lookup_v1",
        "cached_lookup_v1",
        "slow_v1",
        "faq_lookup_v1",
    }
)

ROLES = {
    "operator": Role("operator", ALL_FIXTURE_SKILLS, read=frozenset({"kb://faq"})),
    "analyst": Role(
        "analyst",
        frozenset({"echo_v1", "primary_lookup_v1", "faq_lookup_v1", "send_notification_v1"}),
        deny=frozenset({"send_notification"}),
    ),
}


def request(skill_id: str, args: dict[str, Any], **fields: Any) -> SkillRequest:
    """A request with a fresh audit id (and task id) unless given."""
    fields.setdefault("role", "operator")
    fields.setdefault("audit_id", "aud-" + uuid.uuid4().hex[:10])
    fields.setdefault("task_id", "t-" + uuid.uuid4().hex[:8])
    fields.setdefault("run_id", "run-1")
    return SkillRequest(skill_id=skill_id, args=args, **fields)


def approval(skill_id: str, args_hash: str, approval_id: str = "apr-1") -> Approval:
    return Approval(approval_id=approval_id, skill_id=skill_id, args_hash=args_hash)


class SleepRecorder:
    """Records backoff waits instead of sleeping (yields to the loop once)."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        import asyncio

        self.waits.append(seconds)
        await asyncio.sleep(0)


class FakeClock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


async def audit_rows(
    db: Database, audit_id: str, *, calls_only: bool = True
) -> list[dict[str, Any]]:
    """Rows of one audit id; breaker transition rows left out unless asked."""
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT * FROM audit_events WHERE audit_id = %s ORDER BY id", (audit_id,)
        )
        rows = await cur.fetchall()
    return [r for r in rows if not (calls_only and r["status"].startswith("breaker_"))]


async def counter_rows(db: Database, label: str) -> int:
    async with db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM skill_fixture_counter WHERE label = %s", (label,)
        )
        row = await cur.fetchone()
    assert row is not None
    return int(row["n"])
