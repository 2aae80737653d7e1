"""The innermost step: run the executor."""

from __future__ import annotations

from skills.contract import SkillResult
from skills.middleware.call import Call


async def execute(call: Call) -> SkillResult:
    """Terminal of the chain: the executor's payload as a successful result."""
    payload = await call.executor.execute(call.args, call.ctx)
    return SkillResult(skill_id=call.skill_id, status="success", payload=payload)
