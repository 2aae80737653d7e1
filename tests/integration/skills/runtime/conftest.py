from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest
import pytest_asyncio
from runtime_helpers import FIXTURES, ROLES, FakeClock, SleepRecorder

from checkpoints.opening import Database
from skills.context import RuntimeContext
from skills.registry import SkillRegistry, load_catalog
from skills.runtime import SkillRuntime


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def counter_table(db: Database) -> AsyncIterator[None]:
    async with db.pool.connection() as conn:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS skill_fixture_counter"
            " (id bigserial PRIMARY KEY, label text NOT NULL)"
        )
    yield


@pytest.fixture
def registry() -> SkillRegistry:
    """A fresh load per test, so executor state (scripts, counters) starts clean."""
    return load_catalog(FIXTURES / "skill_catalog")


@pytest.fixture
def sleep() -> SleepRecorder:
    return SleepRecorder()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_runtime(
    db: Database,
    counter_table: None,
    registry: SkillRegistry,
    sleep: SleepRecorder,
    clock: FakeClock,
) -> Callable[..., SkillRuntime]:
    def make(**options: object) -> SkillRuntime:
        options.setdefault("sleep", sleep)
        options.setdefault("breaker_clock", clock)
        context = RuntimeContext(pool=db.pool, settings={})
        return SkillRuntime(registry, ROLES, context, **options)  # type: ignore[arg-type]

    return make


@pytest.fixture
def runtime(make_runtime: Callable[..., SkillRuntime]) -> SkillRuntime:
    return make_runtime()
