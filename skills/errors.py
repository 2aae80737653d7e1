"""Errors of the skill layer, in three families kept apart.

- configuration errors, raised at start-up (`SkillLoadError`, ...);
- runtime failures with typed fields (`SkillTimeout(skill, seconds)`);
- control signals (`ApprovalRequired`, `ConfirmationRequired`), which are not failures.
"""

from __future__ import annotations

from typing import Any

from checkpoints.errors import ConfigurationError

# --- configuration (start-up) ------------------------------------------------


class SkillLoadError(ConfigurationError):
    """A skill package or role cannot be loaded as declared."""


class SkillVersionConflict(ConfigurationError):
    """Two patches of one major version of a skill were found."""

    def __init__(self, skill_id: str) -> None:
        super().__init__(f"SkillVersionConflict: Multiple patches for {skill_id} detected")
        self.skill_id = skill_id


class RoleConfigError(ConfigurationError):
    """A role file or the permission matrix is inconsistent."""


class KnowledgeConfigError(ConfigurationError):
    """A knowledge partition or document file is malformed."""


# --- runtime failures ----------------------------------------------------------


class SkillError(Exception):
    """A skill call failed. `code` is stable and goes to the audit log."""

    code = "skill_error"
    retryable = False

    def __init__(self, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.fields = fields


class PermissionDeniedError(SkillError):
    code = "permission_denied"

    def __init__(self, skill_id: str, role: str) -> None:
        super().__init__(f"{skill_id} not registered for role {role}", skill=skill_id, role=role)
        self.skill_id = skill_id
        self.role = role


class SkillValidationError(SkillError):
    """Input rejected by `validate_input` (never retried)."""

    code = "validation_error"


class DomainError(SkillError):
    """The domain refused the operation (wrong status, not found, ...)."""

    code = "domain_error"


class ForbiddenOperation(SkillError):
    code = "forbidden"


class SkillTimeout(SkillError):
    code = "timeout"
    retryable = True

    def __init__(self, skill_id: str, seconds: float) -> None:
        super().__init__(f"{skill_id} timed out after {seconds:.2f}s", skill=skill_id)
        self.skill_id = skill_id
        self.seconds = seconds


class UpstreamHTTPError(SkillError):
    """An HTTP dependency answered with an error status."""

    code = "http_error"

    def __init__(self, status: int, message: str = "", retry_after: float | None = None) -> None:
        super().__init__(message or f"upstream answered HTTP {status}", status=status)
        self.status = status
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:  # type: ignore[override]
        return self.status in (408, 429) or self.status >= 500


class UpstreamNetworkError(SkillError):
    code = "network_error"
    retryable = True


class CircuitOpenError(SkillError):
    code = "circuit_open"

    def __init__(self, skill_id: str, retry_in: float) -> None:
        super().__init__(f"circuit for {skill_id} is open; retry in {retry_in:.0f}s")
        self.skill_id = skill_id
        self.retry_in = retry_in


class UnknownSkill(SkillError):
    """No loaded package has this skill id (or name)."""

    code = "unknown_skill"

    def __init__(self, skill_id: str) -> None:
        super().__init__(f"unknown skill {skill_id}; list the catalog's skills", skill=skill_id)
        self.skill_id = skill_id


class KnowledgeUnavailable(SkillError):
    """The skill needs a knowledge partition the calling role cannot read."""

    code = "knowledge_unavailable"


class IdempotencyInProgress(SkillError):
    """Another caller holds this idempotency key and has not finished."""

    code = "idempotency_in_progress"


class ApprovalInvalid(SkillError):
    """An approval was presented that the approvals table does not hold as an
    operator's decision on exactly this call (forged, reused or mismatched)."""

    code = "approval_invalid"


class ResultInvalid(SkillError):
    """The executor returned a payload its declared result model rejects.

    Not retried (the same code returns the same shape), but counted against
    the skill's circuit breaker: a dependency answering garbage is unhealthy.
    """

    code = "result_invalid"

    def __init__(self, skill_id: str, model: str, problems: list[str]) -> None:
        first = problems[0] if problems else "no detail"
        super().__init__(
            f"{skill_id} returned a result that is not a valid {model} ({first});"
            " fix the executor or its declared output model",
            skill=skill_id,
        )
        self.skill_id = skill_id
        self.model = model
        self.problems = problems


class ContextMissing(SkillError):
    """The role's binding of the skill requires context the call does not carry."""

    code = "context_missing"

    def __init__(self, skill_id: str, role: str, missing: list[str]) -> None:
        super().__init__(
            f"{role} may call {skill_id} only with {', '.join(missing)} in its context;"
            " call it for a customer session that has them",
            skill=skill_id,
            missing=missing,
        )
        self.skill_id = skill_id
        self.role = role
        self.missing = missing


class IdentityRequired(SkillError):
    """A customer-scoped skill was called with neither a customer nor an operator."""

    code = "identity_required"


class OutcomeUnknown(SkillError):
    """A side effect left the database and its process died before it was
    recorded: nobody can tell whether it happened, so it is never repeated
    blindly and an operator decides."""

    code = "outcome_unknown"


class RecordNotFound(DomainError):
    """A domain record the call names does not exist."""

    code = "not_found"


class OwnershipError(DomainError):
    """The record belongs to another customer than the session's; nothing about it is shown."""

    code = "not_owner"

    def __init__(self, kind: str) -> None:
        super().__init__(f"this {kind} is not on your account; ask about your own {kind}s")
        self.kind = kind


# --- control signals -----------------------------------------------------------


class CallNeedsHuman(Exception):
    """A call that may only run once a person said yes to exactly these args.

    `audit_status` is the status its audit row is written with.
    """

    audit_status = "needs_human"
    who = "a person"

    def __init__(self, skill_id: str, args: dict[str, Any], args_hash: str, reason: str) -> None:
        super().__init__(f"{skill_id} needs {self.who}: {reason}")
        self.skill_id = skill_id
        self.call_args = dict(args)
        self.args_hash = args_hash
        self.reason = reason

    # BaseException.args coerces any assignment to a tuple (a dict became a
    # tuple of its keys), so the call's arguments are exposed read-only here.
    @property
    def args(self) -> dict[str, Any]:  # type: ignore[override]
        return self.call_args


class ApprovalRequired(CallNeedsHuman):
    """A high-risk call needs an operator's approval for exactly these args."""

    audit_status = "approval_required"
    who = "approval"


class ConfirmationRequired(CallNeedsHuman):
    """A consequential call needs the customer's own confirmation of exactly these
    args, given in the conversation, before anything else (approval included) runs."""

    audit_status = "confirmation_required"
    who = "the customer's confirmation"
