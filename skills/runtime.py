"""`SkillRuntime`: the one place the middleware chain is composed.

Order of the links, outermost first, and why:

0. tool run         reports the call to LangChain callback handlers as a tool run
                    (LangSmith, Langfuse, OpenTelemetry); outside audit, so it sees
                    the audited outcome, retries and duration
1. audit            wraps everything, so every call (even denied) gets exactly one row
2. permission       the role's whitelist, before anything reads the arguments
3. validation       executor.validate_input; the normalised args are hashed from here on
4. context          the context keys the role's binding requires are present
5. knowledge        the role must see the knowledge partitions the skill needs
6. confirmation     a skill the domain marks `confirmation: customer` runs only once the
                    customer confirmed these exact args in the conversation; before the
                    risk gate, so an operator is asked only about what the customer wants
7. risk gate        forbidden never runs; high needs an approval of these exact args
8. fallback         after the gates (a refused call must not fail over), before the
                    ledger, so the fallback skill is a separate, separately keyed call
9. payload limit    over-limit results become a pointer to their audit row
10. privacy         the audit copy of the result, masked by privacy level; outside
                    the ledger so replays are masked like first runs
11. idempotency     a side effect with a known key replays its recorded result;
                    outside the breaker, so replays work even when the breaker is open
12. circuit breaker one outcome per call (after retries), fails fast when open
13. result check    the payload validates against the skill's output model; inside
                    the breaker (a malformed answer counts), outside retry
14. retry           tenacity backoff + jitter, honours Retry-After
15. timeout         per attempt, inside retry, so a timed-out attempt can be retried
16. rollback        undoes a failed attempt's partial work before any retry
17. execute         the executor itself

(The architecture lists "timeout → retry"; the timeout sits inside retry so
that `SkillTimeout` is retryable, as the retry rules require.)

`call()` never raises for skill failures: denials, validation errors,
forbidden operations, timeouts and upstream errors come back as a
`SkillResult` with `status` error/timeout and a distinct `error_code`
(`permission_denied`, `validation_error`, `context_missing`,
`knowledge_unavailable`, `forbidden`, `timeout`, `circuit_open`,
`result_invalid`, ...). Only control signals are raised: `ApprovalRequired`
(the graph interrupts for a human), `ConfirmationRequired` (the turn asks the customer) and cancellation / `GraphBubbleUp`.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from skills.context import RuntimeContext
from skills.contract import SkillMetadata, SkillRequest, SkillResult
from skills.errors import UnknownSkill
from skills.hashing import args_hash
from skills.middleware.audit import Audit
from skills.middleware.breaker import BreakerState, CircuitBreaker
from skills.middleware.call import Call, CallTrace, Middleware, Next, RoleLike, compose
from skills.middleware.confirmation import CustomerConfirmation
from skills.middleware.execute import execute
from skills.middleware.fallback import Fallback
from skills.middleware.idempotency import IdempotencyLedger
from skills.middleware.knowledge import Knowledge, KnowledgeCheck, no_knowledge_check
from skills.middleware.payload_limit import PayloadLimit
from skills.middleware.permission import Permission, is_permitted
from skills.middleware.privacy_mask import PrivacyMask
from skills.middleware.required_context import RequiredContext
from skills.middleware.result_check import ResultCheck
from skills.middleware.retry import Retry
from skills.middleware.risk import RiskGate
from skills.middleware.rollback import Compensate, RollbackOnFailure
from skills.middleware.timeout import Timeout
from skills.middleware.tool_run import ToolRun
from skills.middleware.validation import Validation
from skills.registry import SkillRegistry

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class _NoRole:
    """Stands in for an unknown role name: it may do nothing."""

    name: str
    execute: frozenset[str] = frozenset()
    deny: frozenset[str] = frozenset()
    read: frozenset[str] = frozenset()

    def required_context(self, skill_id: str) -> tuple[str, ...]:
        """Nothing: it may call no skill anyway."""
        return ()


class SkillRuntime:
    """Runs skills for roles through the middleware chain."""

    def __init__(
        self,
        registry: SkillRegistry,
        roles: Mapping[str, RoleLike],
        context: RuntimeContext,
        *,
        knowledge_check: KnowledgeCheck = no_knowledge_check,
        sleep: Sleep = asyncio.sleep,
        unit_random: Callable[[], float] = random.random,
        breaker_clock: Callable[[], float] = time.monotonic,
        tool_runs: bool = True,
    ) -> None:
        """`tool_runs=False` leaves out the tool-run link: only to measure what it
        costs (benchmarks/bench_tracing_off.py); callers keep it."""
        self._registry = registry
        self._roles = roles
        self._context = context
        self._knowledge_check = knowledge_check
        self._audit = Audit(context.pool)
        self.breaker = CircuitBreaker(
            clock=breaker_clock, on_transition=self._audit.breaker_transition
        )
        links: list[Middleware] = [
            *([ToolRun()] if tool_runs else []),
            self._audit,
            Permission(),
            Validation(),
            RequiredContext(),
            Knowledge(knowledge_check),
            CustomerConfirmation(context.pool),
            RiskGate(context.pool),
            Fallback(self.call),
            PayloadLimit(),
            PrivacyMask(),
            IdempotencyLedger(context.pool),
            self.breaker,
            ResultCheck(),
            Retry(sleep=sleep, unit_random=unit_random),
            Timeout(),
            RollbackOnFailure(),
        ]
        self._chain: Next = compose(links, execute)
        self._compensation: Next = compose(
            [self._audit, Permission(), Validation()], Compensate(context.pool)
        )

    @property
    def registry(self) -> SkillRegistry:
        return self._registry

    async def call(self, request: SkillRequest) -> SkillResult:
        """Run one skill call; failures are results, approvals are raised."""
        try:
            call = self._prepare(request)
        except UnknownSkill as exc:
            return await self._audit.unknown_skill(request, exc)
        return await self._chain(call)

    async def compensate(self, request: SkillRequest, payload: Any = None) -> SkillResult:
        """Undo a completed side effect of `request` (its recorded result when
        `payload` is None); audited as its own call with status `rolled_back`."""
        try:
            call = self._prepare(request)
        except UnknownSkill as exc:
            return await self._audit.unknown_skill(request, exc)
        call.trace.detail["compensate_payload"] = payload
        return await self._compensation(call)

    def bound_skills(self, role: RoleLike) -> list[SkillMetadata]:
        """The skills a node acting as `role` may be given: whitelisted, not
        denied, and whose knowledge the role can read (else `SkillLoadError`)."""
        bound = [s.metadata for s in self._registry if is_permitted(role, s.metadata)]
        for metadata in bound:
            self._knowledge_check(metadata, role)
        return bound

    def discover(
        self,
        role: RoleLike,
        *,
        capability: str | None = None,
        max_cost_usd: float | None = None,
        max_latency_ms: int | None = None,
    ) -> list[SkillMetadata]:
        """The skills `role` may run within the given declared cost, fastest
        then cheapest (see `SkillRegistry.find`)."""
        allowed = [s.skill_id for s in self._registry if is_permitted(role, s.metadata)]
        return self._registry.find(
            capability=capability,
            max_cost_usd=max_cost_usd,
            max_latency_ms=max_latency_ms,
            within=allowed,
        )

    def breaker_state(self, skill_id: str) -> BreakerState:
        return self.breaker.state(self._registry.get(skill_id).skill_id)

    def _prepare(self, request: SkillRequest) -> Call:
        skill = self._registry.get(request.skill_id)
        role = self._roles.get(request.role) or _NoRole(request.role)
        return Call(
            request=request,
            skill=skill,
            role=role,
            ctx=self._context.for_user(request.user_id),
            args=dict(request.args),
            trace=CallTrace(args_hash=args_hash(request.args)),
        )
