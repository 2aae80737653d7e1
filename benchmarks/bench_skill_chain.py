"""What the middleware chain costs: the same read skill called directly and
through `SkillRuntime.call` (permission, validation, risk, audit row, ...).

Calls alternate (interleaved) between the two, on the same database, so
machine noise falls on both alike; prints the median, min and max
milliseconds per call of each and their ratio.

    .venv/bin/python -m benchmarks.bench_skill_chain [CALLS]
"""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
from collections.abc import Awaitable, Callable

from benchmarks.subjects import orders
from benchmarks.table import Row, Spread, ratio, render
from checkpoints.opening import Database, open_database
from nodes.bootstrap import build_support_context
from skills.context import RuntimeContext
from skills.contract import SkillRequest

SKILL = "get_order_details_v1"
WARMUP = 20


async def measure(db: Database, calls: int) -> list[Row]:
    """One row: the chain's median per call against the direct call's."""
    ((order_id, user_id),) = await orders(db, 1)
    ctx = await build_support_context(db.pool, env={})
    executor = ctx.registry.get(SKILL).executor
    args = {"order_id": order_id}
    direct_ctx = RuntimeContext(pool=db.pool, user_id=user_id)
    audit_id = "bench-" + uuid.uuid4().hex[:8]

    async def direct() -> None:
        await executor.execute(executor.validate_input(args), direct_ctx)

    async def chained() -> None:
        request = SkillRequest(
            skill_id=SKILL, args=args, role="order_query", user_id=user_id, audit_id=audit_id
        )
        result = await ctx.skills.call(request)
        assert result.ok, result.error_message

    base, chain = await _interleaved(direct, chained, calls)
    async with db.pool.connection() as conn:
        await conn.execute("DELETE FROM audit_events WHERE audit_id = %s", (audit_id,))
    return [
        Row(
            f"{SKILL} through the middleware chain, per call",
            chain.ms(),
            f"{base.ms()} direct executor call",
            ratio(chain.median, base.median),
            chain.range_ms(),
        )
    ]


async def _interleaved(
    first: Callable[[], Awaitable[None]], second: Callable[[], Awaitable[None]], calls: int
) -> tuple[Spread, Spread]:
    times: tuple[list[float], list[float]] = ([], [])
    sides = ((0, first), (1, second))
    for n in range(WARMUP + calls):
        for index, call in sides if n % 2 else sides[::-1]:
            start = time.perf_counter()
            await call()
            if n >= WARMUP:
                times[index].append((time.perf_counter() - start) * 1000)
    return Spread.of(times[0]), Spread.of(times[1])


async def main(calls: int) -> None:
    async with open_database() as db:
        print(render(await measure(db, calls)))


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 300))
