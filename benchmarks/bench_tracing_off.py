"""What tracing costs when it is off: the skill chain with its tool-run link (no
callback handler configured, no OTLP endpoint) against a build without the link,
and the per-turn hook of the Python API against nothing.

Rounds alternate the two builds on the same database and the medians of the
rounds are compared, so drift on a shared machine hits both alike. Prints
milliseconds per call, the ratio, and the per-turn hook in microseconds.

    .venv/bin/python -m benchmarks.bench_tracing_off [ROUNDS] [CALLS_PER_ROUND]
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable

from langchain_core.callbacks import AsyncCallbackManager
from langchain_core.runnables.config import var_child_runnable_config

from checkpoints.opening import open_database
from domains.retail.storage.seed import ensure_reference_data
from nodes.bootstrap import build_support_context
from nodes.context import SupportContext
from nodes.domain import load_domain
from nodes.tracing import install_tracing, turn_trace
from skills.contract import SkillRequest

SKILL = "get_order_details_v1"
_TRACING_VARIABLES = ("OTEL_", "LANGSMITH_", "LANGCHAIN_TRACING", "LANGFUSE_")


async def main(rounds: int, calls: int) -> None:
    for key in [k for k in os.environ if k.startswith(_TRACING_VARIABLES)]:
        del os.environ[key]
    assert not install_tracing(os.environ)
    async with open_database(migrations=(load_domain().migrations,)) as db:
        async with db.pool.connection() as conn:
            await ensure_reference_data(conn)
            cur = await conn.execute(
                "SELECT order_id, user_id FROM orders ORDER BY order_id LIMIT 1"
            )
            row = await cur.fetchone()
        assert row is not None
        hooked = await build_support_context(db.pool, env={})
        bare = await build_support_context(db.pool, env={}, tool_runs=False)
        audit_id = "bench-" + uuid.uuid4().hex[:8]
        request = SkillRequest(
            skill_id=SKILL,
            args={"order_id": row["order_id"]},
            role="order_query",
            user_id=row["user_id"],
            audit_id=audit_id,
        )
        # As inside a graph node with no handler: a run config whose manager is empty.
        var_child_runnable_config.set({"callbacks": AsyncCallbackManager(handlers=[])})
        with_hook, without = await _interleaved(
            _caller(hooked, request), _caller(bare, request), rounds, calls
        )
        async with db.pool.connection() as conn:
            await conn.execute("DELETE FROM audit_events WHERE audit_id = %s", (audit_id,))
    print(
        f"{SKILL}, tracing off: {with_hook:.3f} ms/call with the tool-run link, {without:.3f} without"
    )
    print(
        f"tracing-off ratio: {with_hook / without:.3f}x (medians of {rounds} interleaved rounds of {calls} calls)"
    )
    print(f"per-turn hook, tracing off: {_turn_hook_us():.2f} µs per turn")


def _caller(ctx: SupportContext, request: SkillRequest) -> Callable[[], Awaitable[None]]:
    async def call() -> None:
        result = await ctx.skills.call(request)
        assert result.ok, result.error_message

    return call


async def _interleaved(
    first: Callable[[], Awaitable[None]],
    second: Callable[[], Awaitable[None]],
    rounds: int,
    calls: int,
) -> tuple[float, float]:
    """Median ms/call of each, rounds alternating which goes first."""
    for _ in range(20):  # warm the pool and caches
        await first()
        await second()
    times: tuple[list[float], list[float]] = ([], [])
    for index in range(rounds):
        order = (0, 1) if index % 2 == 0 else (1, 0)
        for which in order:
            call = (first, second)[which]
            start = time.perf_counter()
            for _ in range(calls):
                await call()
            times[which].append((time.perf_counter() - start) * 1000 / calls)
    return statistics.median(times[0]), statistics.median(times[1])


def _turn_hook_us(turns: int = 20000) -> float:
    """What `graphs.api` adds to every turn when tracing is off."""
    start = time.perf_counter()
    for _ in range(turns):
        with turn_trace(thread_id="thr-bench", mode="support", customer=None, resumed_from=None):
            pass
    return (time.perf_counter() - start) * 1e6 / turns


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    asyncio.run(main(*(args + [21, 50][len(args) :])))
