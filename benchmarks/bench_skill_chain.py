"""What the middleware chain costs: the same read skill called directly and
through `SkillRuntime.call` (permission, validation, risk, audit row, ...).

Prints milliseconds per call for both and their ratio, measured in one run on
the same database, so the number is comparable across machines.

    make bench      # or: .venv/bin/python -m benchmarks.bench_skill_chain [CALLS]
"""

from __future__ import annotations

import asyncio
import sys
import time
import uuid

from checkpoints.opening import open_database
from domains.retail.storage.seed import ensure_reference_data
from nodes.bootstrap import build_support_context
from skills.context import RuntimeContext
from skills.contract import SkillRequest

SKILL = "get_order_details_v1"


async def main(calls: int) -> None:
    async with open_database() as db:
        async with db.pool.connection() as conn:
            await ensure_reference_data(conn)
            cur = await conn.execute(
                "SELECT order_id, user_id FROM orders ORDER BY order_id LIMIT 1"
            )
            row = await cur.fetchone()
        assert row is not None
        ctx = await build_support_context(db.pool, env={})
        executor = ctx.registry.get(SKILL).executor
        args = {"order_id": row["order_id"]}
        direct_ctx = RuntimeContext(pool=db.pool, user_id=row["user_id"])
        audit_id = "bench-" + uuid.uuid4().hex[:8]

        async def direct() -> None:
            await executor.execute(executor.validate_input(args), direct_ctx)

        async def chained() -> None:
            result = await ctx.skills.call(
                SkillRequest(
                    skill_id=SKILL,
                    args=args,
                    role="order_query",
                    user_id=row["user_id"],
                    audit_id=audit_id,
                )
            )
            assert result.ok, result.error_message

        base = await _per_call_ms(direct, calls)
        chain = await _per_call_ms(chained, calls)
        async with db.pool.connection() as conn:
            await conn.execute("DELETE FROM audit_events WHERE audit_id = %s", (audit_id,))
    print(f"{SKILL}: direct {base:.2f} ms/call, through the chain {chain:.2f} ms/call")
    print(f"chain overhead ratio: {chain / base:.2f}x over {calls} calls each")


async def _per_call_ms(call, calls: int) -> float:  # type: ignore[no-untyped-def]
    for _ in range(min(20, calls)):  # warm the pool and caches
        await call()
    start = time.perf_counter()
    for _ in range(calls):
        await call()
    return (time.perf_counter() - start) * 1000 / calls


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 300))
