"""The two executor shapes of the library packages, after the harness's pattern.

A read runs on one pooled connection. A write runs in one transaction that
first asks the idempotency ledger whether an earlier attempt already
committed (`ctx.recorded_effect`), and records its own effect on the same
connection (`ctx.record_effect`) just before commit: the change and the
ledger's record of it commit together or not at all.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pydantic import BaseModel

from domains.library.storage.store import Conn
from domains.library.tools.arguments import Args, parse_args
from skills.contract import SkillContext
from skills.errors import OwnershipError

Tool = Callable[[Conn, dict[str, Any], SkillContext], Awaitable[BaseModel]]


def ensure_owner(ctx: SkillContext, member_id: str, kind: str) -> None:
    """Refuse another member's record in a member's session (operators see all)."""
    if ctx.user_id is not None and member_id != ctx.user_id:
        raise OwnershipError(kind)


class ReadExecutor:
    """Runs a read-only tool on one pooled connection; the result is `output`'s dump."""

    def __init__(self, model: type[Args], tool: Tool, output: type[BaseModel]) -> None:
        self._model = model
        self._tool = tool
        self.output = output

    def validate_input(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """Normalised arguments, or `SkillValidationError`."""
        return parse_args(self._model, args)

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> Any:
        async with ctx.pool.connection() as conn:
            result = await self._tool(conn, args, ctx)
        return result.model_dump(mode="json")

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        """Nothing to undo: a read changes nothing, a write is one transaction."""
        return None


class WriteExecutor(ReadExecutor):
    """Runs a read-modify-write tool inside one transaction, once per idempotency key."""

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> Any:
        async with ctx.pool.connection() as conn, conn.transaction():
            done, recorded = await ctx.recorded_effect(conn)
            if done:
                return recorded  # an earlier attempt committed; its COMMIT reply was lost
            payload = (await self._tool(conn, args, ctx)).model_dump(mode="json")
            await ctx.record_effect(conn, payload)
            return payload
