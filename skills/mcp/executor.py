"""The executor of an MCP-backed skill: the package's own argument check and
result model around a `tools/call` on the configured server.

A package whose metadata says `executor: {mcp: {server, tool}}` keeps an
`executor.py`, declaring only what stays local:

```python
class Ticket(BaseModel): ...
class CloseTicket(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ticket_id: str = Field(pattern=r"^T-[0-9]+$")

EXECUTOR = McpSkill(output=Ticket, arguments=CloseTicket)
```

Any object with `output` and `validate_input` (and optionally an async
`rollback` and `risk_for`) will do; `execute` is the tool and must not be
defined. What the tool answers is untrusted: it is parsed here (structured
content, else one JSON text block) and validated against `output` by the
chain's result check like any other skill's payload.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, ValidationError

from skills.contract import RiskLevel, SkillContext
from skills.errors import ResultInvalid, SkillValidationError
from skills.mcp.connection import McpConnection
from skills.mcp.errors import McpToolError, one_line

IDEMPOTENCY_META_KEY = "dev.rolegraph/idempotency-key"
"""`_meta` key carrying a write's ledger key, so a server can deduplicate a
retried attempt (the runtime retries an external write that timed out)."""


class LocalHalf(Protocol):
    """What an MCP-backed package's `EXECUTOR` declares itself."""

    @property
    def output(self) -> type[BaseModel]: ...

    def validate_input(self, args: Mapping[str, Any]) -> dict[str, Any]: ...


class McpSkill:
    """The usual local half: arguments checked by a pydantic model, no rollback."""

    def __init__(self, *, output: type[BaseModel], arguments: type[BaseModel]) -> None:
        self.output = output
        self.arguments = arguments

    def validate_input(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments as the model normalises them (JSON types), or `SkillValidationError`."""
        try:
            checked = self.arguments.model_validate(dict(args))
        except ValidationError as exc:
            error = exc.errors(include_input=False, include_url=False)[0]
            field = ".".join(str(part) for part in error["loc"]) or "(root)"
            raise SkillValidationError(f"argument '{field}': {error['msg']}") from None
        return checked.model_dump(mode="json", exclude_none=True)


class McpExecutor:
    """A `SkillExecutor` whose `execute` calls `tool` on `connection`."""

    def __init__(
        self,
        skill_id: str,
        local: LocalHalf,
        connection: McpConnection,
        tool: str,
    ) -> None:
        self.skill_id = skill_id
        self.output = local.output
        self.local = local
        self.connection = connection
        self.tool = tool
        self.risk_for: Callable[[dict[str, Any], SkillContext], RiskLevel] | None = getattr(
            local, "risk_for", None
        )

    def __repr__(self) -> str:
        return f"McpExecutor({self.skill_id}: {self.connection.name}/{self.tool})"

    def validate_input(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """The package's own check: runs before confirmation, approval and the ledger."""
        return self.local.validate_input(args)

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> Any:
        """Call the tool with the validated arguments; its answer, parsed, is the payload."""
        key = ctx.idempotency_key
        meta = {IDEMPOTENCY_META_KEY: key} if key is not None else None
        result = await self.connection.call_tool(self.tool, args, meta)
        return self._payload(result)

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        """The package's compensation when it declares one; none otherwise."""
        rollback = getattr(self.local, "rollback", None)
        if rollback is not None:
            await rollback(args, ctx, payload)

    def _payload(self, result: CallToolResult) -> Any:
        texts = [block.text for block in result.content if isinstance(block, TextContent)]
        if result.is_error:
            said = one_line(" ".join(texts)) or "no detail"
            raise McpToolError(
                f"MCP tool {self.connection.name}/{self.tool} failed: {said}",
                server=self.connection.name,
                tool=self.tool,
            )
        if result.structured_content is not None:
            return result.structured_content
        if len(texts) != 1:
            raise self._invalid(f"(root): expected one JSON text block, got {len(texts)}")
        try:
            return json.loads(texts[0])
        except json.JSONDecodeError:
            raise self._invalid("(root): the tool answered text that is not JSON") from None

    def _invalid(self, problem: str) -> ResultInvalid:
        return ResultInvalid(self.skill_id, self.output.__name__, [problem])
