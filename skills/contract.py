"""The skill contract: package metadata, call request, context and result.

A skill package is `<catalog>/<skill_id>/` holding `metadata.yaml`
(parsed into `SkillMetadata`), `executor.py` (a module-level `EXECUTOR`
implementing `SkillExecutor`, whose `output` names the result model),
`README.md` and `test_cases/*.json`.

Privacy levels (`SkillMetadata.privacy_level`) decide where a result is masked
(e-mail addresses, phone and card numbers; see `skills/privacy.py`):

- `public`: catalogue or help-centre data anyone may see; never masked.
- `internal`: the desk's own working data; masked in the audit copy.
- `customer`: a customer's own records (the call needs a customer or a named
  operator); masked in the audit copy, kept whole in the state so the
  customer's answer can use them.
- `sensitive`: as `customer`, and masked in the result itself, so neither the
  state, the answers nor a model prompt ever holds the raw values.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

RiskLevel = Literal["low", "medium", "high", "forbidden"]
PrivacyLevel = Literal["public", "internal", "customer", "sensitive"]
ErrorAction = Literal["retry", "fallback", "fail"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ParameterSpec(_Frozen):
    """One input parameter as declared in metadata (documentation + discovery)."""

    type: str
    description: str = ""
    required: bool = True
    target: bool = False
    """Names the record the call acts on: an operator's edit may change how a
    call acts, never on whose record (that is a new request, not an edit)."""


class ErrorPolicy(_Frozen):
    """What the runtime does when the skill fails with one error type."""

    action: ErrorAction
    fallback_skill: str | None = None
    fallback_args: dict[str, str] = Field(default_factory=dict)
    """The fallback's argument -> this skill's argument that fills it; empty: passed as they are."""

    def args_for_fallback(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """The failed call's arguments in the fallback's names (only the mapped ones, if mapped)."""
        if not self.fallback_args:
            return dict(args)
        return {dst: args[src] for dst, src in self.fallback_args.items() if src in args}


class Replacement(_Frozen):
    """A lesser step that answers the same question when this skill cannot.

    Declared as `replan_with: {skill, role, args}`: when the skill fails and
    can neither be retried nor substituted, the planner replaces the step with
    `role` running `skill` on the failed call's `args` (the same record).
    """

    skill: str
    role: str
    args: tuple[str, ...] = Field(min_length=1)
    """Arguments of the failed call the replacement takes over, by name."""


class CostEstimate(_Frozen):
    """What one call is expected to cost; discovery filters and sorts by it."""

    latency_ms: int = Field(gt=0)
    tokens: int = 0
    usd: float = 0.0


class KnowledgeDependency(_Frozen):
    """A knowledge partition the skill needs, with the fields it reads."""

    partition: str
    required_fields: tuple[str, ...] = ()
    max_age_days: int | None = None


class ResourceLimits(_Frozen):
    """Bounds on one call's result."""

    max_records: int = 1
    max_payload_bytes: int = Field(default=65536, gt=0)
    """A result whose JSON is larger is replaced by a `TruncatedResult`; the
    whole (privacy-masked) result stays in the call's audit row."""


class McpToolRef(_Frozen):
    """A tool of an MCP server configured in the catalog's `mcp_servers.yaml`."""

    server: str = Field(min_length=1)
    tool: str = Field(min_length=1)


class ExecutorSource(_Frozen):
    """Where a package's `execute` comes from when it is not its own `executor.py`
    (see docs/mcp-skills.md): `executor: {mcp: {server, tool}}`."""

    mcp: McpToolRef


class SkillMetadata(_Frozen):
    """`metadata.yaml` of a skill package."""

    skill_id: str = Field(pattern=r"^[a-z][a-z0-9_]*_v[0-9]+$")
    version: str = Field(pattern=r"^[0-9]+\.[0-9]+\.[0-9]+$")
    description: str
    capabilities: tuple[str, ...] = ()
    parameters: dict[str, ParameterSpec] = Field(default_factory=dict)
    returns: str = ""
    """Prose for readers; the enforced result model is the executor's `output`."""
    error_handling: dict[str, ErrorPolicy] = Field(default_factory=dict)
    cost_estimate: CostEstimate
    privacy_level: PrivacyLevel = "internal"
    risk: RiskLevel
    side_effect: bool
    confirmation: Literal["none", "customer"] = "none"
    """`customer`: the customer confirms the exact call in the conversation before it
    runs (and before any operator approval); which skills need it is the domain's policy."""
    operations: tuple[str, ...] = ()
    """What the skill does to which of the domain's resources (`read db://<table>`);
    checked against the domain's vocabulary and the permission matrix at start-up."""
    effect: Literal["transactional", "external"] = "transactional"
    """Whether the side effect commits in the database transaction that records
    it in the idempotency ledger, or leaves the database (an HTTP call, an MCP
    tool): a crash mid-call then leaves its outcome unknown."""
    knowledge_dependencies: tuple[KnowledgeDependency, ...] = ()
    resource_limits: ResourceLimits = ResourceLimits()
    timeout: float | None = Field(default=None, gt=0)
    replan_with: Replacement | None = None
    """The step the planner puts in this one's place when it fails for good."""
    executor: ExecutorSource | None = None
    """Set when the package's work is done by an MCP tool; `executor.py` then
    declares only the result model and the argument check."""
    model_omits: tuple[str, ...] = ()
    """Result fields a role agent's model is not shown, as dotted paths (lists are
    walked: `shipments.events.seq`): bookkeeping no answer needs. The findings,
    the answer's checks and the audit still get the whole result
    (`nodes.agent.shown`)."""

    @property
    def name(self) -> str:
        """The skill id without its major-version suffix (`get_order_details`)."""
        return self.skill_id.rsplit("_v", 1)[0]

    @property
    def major(self) -> int:
        return int(self.version.split(".", 1)[0])

    @property
    def timeout_seconds(self) -> float:
        """Declared timeout, else 2.5x the declared latency."""
        return self.timeout or 2.5 * self.cost_estimate.latency_ms / 1000


class Approval(_Frozen):
    """A human decision attached to one exact call (skill + args)."""

    approval_id: str
    skill_id: str
    args_hash: str
    approver: str = "human"


class SkillRequest(_Frozen):
    """One call of one skill by one role, as it enters the middleware chain."""

    skill_id: str
    args: dict[str, Any]
    role: str
    user_id: str | None = None
    """The customer the call acts for; their records only."""
    operator: str | None = None
    """The operator acting without a customer (back-office tools, replays).
    A customer-scoped skill needs one of `user_id` and `operator`."""
    thread_id: str = "adhoc"
    run_id: str = "adhoc"
    task_id: str = "adhoc"
    node: str = "cli"
    audit_id: str
    step: int = 0
    approval: Approval | None = None
    locale: str | None = None
    """The customer's language, for bindings that require `locale` context."""


class SkillResult(_Frozen):
    """What every call returns, success or not."""

    skill_id: str
    status: Literal["success", "error", "timeout"]
    payload: Any = None
    error_code: str | None = None
    error_message: str | None = None
    retries: int = 0
    duration_ms: int = 0
    replayed: bool = False
    notice: str | None = None
    truncated: bool = False
    """The payload is a `TruncatedResult` standing in for a larger result."""

    @property
    def ok(self) -> bool:
        return self.status == "success"


class TruncatedResult(_Frozen):
    """The payload of a result that exceeded `max_payload_bytes`: what it was
    and where the whole of it is (the audit row of this call)."""

    truncated: Literal[True] = True
    skill_id: str
    size_bytes: int
    limit_bytes: int
    audit_id: str
    task_id: str
    preview: str
    """The start of the result's JSON text, cut to fit the limit."""


class SkillContext(Protocol):
    """Run-scoped dependencies an executor may use (never globals)."""

    @property
    def pool(self) -> Any: ...

    @property
    def user_id(self) -> str | None: ...

    def now(self) -> datetime: ...

    @property
    def settings(self) -> Mapping[str, str]: ...

    @property
    def idempotency_key(self) -> str | None:
        """The ledger key of this call (None for a direct call outside the chain)."""
        ...

    async def recorded_effect(self, conn: Any) -> tuple[bool, Any]:
        """Whether this call's effect already committed, and its recorded payload."""
        ...

    async def record_effect(self, conn: Any, payload: Any) -> None:
        """Record the ledger completion inside the caller's open transaction."""
        ...


class SkillExecutor(Protocol):
    """The code half of a skill package."""

    @property
    def output(self) -> type[BaseModel]:
        """The model every successful payload must validate against."""
        ...

    def validate_input(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """Return normalised args or raise `SkillValidationError`."""
        ...

    async def execute(self, args: dict[str, Any], ctx: SkillContext) -> Any:
        """Do the work; return a JSON-serialisable payload or raise a SkillError."""
        ...

    async def rollback(self, args: dict[str, Any], ctx: SkillContext, payload: Any) -> None:
        """Compensate a completed side effect when a later step fails."""
        ...
