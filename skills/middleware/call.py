"""What flows through the chain: the `Call`, its `CallTrace`, and the link type."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import reduce
from typing import Any, Protocol

from skills.contract import SkillContext, SkillExecutor, SkillMetadata, SkillRequest, SkillResult
from skills.registry import LoadedSkill


class RoleLike(Protocol):
    """The part of a role the runtime enforces (see skills/roles.py for the real one)."""

    @property
    def name(self) -> str: ...

    @property
    def execute(self) -> frozenset[str]: ...

    @property
    def deny(self) -> frozenset[str]: ...

    @property
    def read(self) -> frozenset[str]: ...

    def required_context(self, skill_id: str) -> tuple[str, ...]:
        """Context keys the role's binding of `skill_id` requires (none when unbound)."""
        ...


@dataclass
class CallTrace:
    """What inner links learned about a call, for the audit link to write.

    Mutable on purpose: it is the one channel from inner links (retries,
    breaker state, notices) back out to the audit row, and it lives exactly
    as long as one call.
    """

    args_hash: str
    retries: int = 0
    notice: str | None = None
    breaker_state: str | None = None
    approval_id: str | None = None
    status: str | None = None
    error_code: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def add_notice(self, text: str) -> None:
        self.notice = text if self.notice is None else f"{self.notice}; {text}"


@dataclass(frozen=True)
class Call:
    """One skill call as the links see it. `args` are normalised once validated."""

    request: SkillRequest
    skill: LoadedSkill
    role: RoleLike
    ctx: SkillContext
    args: dict[str, Any]
    trace: CallTrace

    @property
    def metadata(self) -> SkillMetadata:
        return self.skill.metadata

    @property
    def executor(self) -> SkillExecutor:
        return self.skill.executor

    @property
    def skill_id(self) -> str:
        return self.skill.skill_id

    def with_args(self, args: dict[str, Any]) -> Call:
        return replace(self, args=args)


Next = Callable[[Call], Awaitable[SkillResult]]


class Middleware(Protocol):
    """One link of the chain."""

    async def __call__(self, call: Call, next: Next) -> SkillResult: ...


def compose(links: Sequence[Middleware], terminal: Next) -> Next:
    """Chain `links` so the first one listed runs outermost, `terminal` innermost."""

    def bind(inner: Next, link: Middleware) -> Next:
        async def run(call: Call) -> SkillResult:
            return await link(call, inner)

        return run

    return reduce(bind, reversed(links), terminal)
