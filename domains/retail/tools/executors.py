"""The three executor shapes every retail package is an instance of.

A package's `executor.py` is one line binding an argument model, a tool
function from `domains.retail.tools.tools_*` and the result model the runtime
checks every payload against (`domains.retail.results`): reads run on a pooled connection,
writes inside one transaction (their tool functions lock rows with
`FOR UPDATE`), pure tools touch no database.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pydantic import BaseModel

from domains.retail.tools.arguments import Args, parse_args
from skills.contract import RiskLevel, SkillContext
from skills.errors import OwnershipError

DbTool = Callable[[Any, dict[str, Any], SkillContext], Awaitable[Any]]
PureTool = Callable[[dict[str, Any]], Any]
RiskRule = Callable[[Mapping[str, Any], SkillContext], RiskLevel]


def ensure_owner(ctx: SkillContext, owner_id: str, kind: str) -> None:
    """Refuse a record of another customer when the session has one.

    A call without a customer reaches here only as a named operator: the
    permission link refuses customer-scoped skills called by nobody.
    """
    if ctx.user_id is not None and owner_id != ctx.user_id:
        raise OwnershipError(kind)


class _Executor:
    def __init__(self, model: type[Args], output: type[BaseModel]) -> None:
        self._model = model
        self.output = output

    def validate_input(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """Normalised arguments, or `SkillValidationError`."""
        return parse_args(self._model, args)

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        """Nothing to undo: the work is one transaction, committed or not at all."""
        return None


class ReadExecutor(_Executor):
    """Runs a read-only tool on one pooled connection."""

    def __init__(self, model: type[Args], tool: DbTool, output: type[BaseModel]) -> None:
        super().__init__(model, output)
        self._tool = tool

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> Any:
        async with ctx.pool.connection() as conn:
            return await self._tool(conn, args, ctx)


class WriteExecutor(ReadExecutor):
    """Runs a read-modify-write tool inside one transaction.

    With a `risk` rule the executor exposes `risk_for`, which the runtime's
    risk gate prefers over the declared risk.
    """

    risk_for: RiskRule

    def __init__(
        self,
        model: type[Args],
        tool: DbTool,
        output: type[BaseModel],
        risk: RiskRule | None = None,
    ) -> None:
        super().__init__(model, tool, output)
        if risk is not None:
            self.risk_for = risk

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> Any:
        async with ctx.pool.connection() as conn, conn.transaction():
            done, recorded = await ctx.recorded_effect(conn)
            if done:
                return recorded  # an earlier attempt committed; its COMMIT reply was lost
            payload = await self._tool(conn, args, ctx)
            # The change and the ledger's record of it commit together.
            await ctx.record_effect(conn, payload)
            return payload


class PureExecutor(_Executor):
    """Runs a tool that needs neither database nor context."""

    def __init__(self, model: type[Args], tool: PureTool, output: type[BaseModel]) -> None:
        super().__init__(model, output)
        self._tool = tool

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> Any:
        return self._tool(args)


def user_scoped_risk(level: RiskLevel) -> RiskRule:
    """`level`, but forbidden when a customer session names another user's id."""

    def risk_for(args: Mapping[str, Any], ctx: SkillContext) -> RiskLevel:
        user_id = args.get("user_id")
        if ctx.user_id is not None and user_id is not None and user_id != ctx.user_id:
            return "forbidden"
        return level

    return risk_for
