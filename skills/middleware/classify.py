"""How the chain judges an exception: its code, its error policy, whether to
retry it and whether it counts against the circuit breaker.

Kept in one module so retry, breaker, fallback and audit cannot disagree.
"""

from __future__ import annotations

import json
import ssl

from langgraph.errors import GraphBubbleUp

from checkpoints.faults import CONNECTION_LOST
from skills.contract import ErrorPolicy, SkillMetadata
from skills.errors import (
    ApprovalInvalid,
    CircuitOpenError,
    ContextMissing,
    DomainError,
    ForbiddenOperation,
    IdentityRequired,
    KnowledgeUnavailable,
    OutcomeUnknown,
    PermissionDeniedError,
    SkillError,
    SkillTimeout,
    SkillValidationError,
    UnknownSkill,
    UpstreamHTTPError,
    UpstreamNetworkError,
)

# Retrying these cannot help: the input, the caller or the peer's identity is
# wrong, or the exception is a control signal that must travel untouched.
_NEVER_RETRY: tuple[type[BaseException], ...] = (
    ssl.SSLError,
    json.JSONDecodeError,
    SkillValidationError,
    DomainError,
    PermissionDeniedError,
    ForbiddenOperation,
    KnowledgeUnavailable,
    UnknownSkill,
    CircuitOpenError,
    OutcomeUnknown,
    ApprovalInvalid,
    IdentityRequired,
    ContextMissing,
    GraphBubbleUp,
)


def error_code(exc: BaseException) -> str:
    """The stable code written to the audit log and `SkillResult.error_code`."""
    if isinstance(exc, SkillError):
        return exc.code
    if isinstance(exc, CONNECTION_LOST):
        return "database_unavailable"
    if isinstance(exc, ssl.SSLError):
        return "ssl_error"
    if isinstance(exc, json.JSONDecodeError):
        return "invalid_response"
    return "unexpected_error"


def policy_for(exc: BaseException, metadata: SkillMetadata) -> ErrorPolicy | None:
    """The metadata's `error_handling` entry for this error, by code or class name."""
    names = [error_code(exc)] + [cls.__name__ for cls in type(exc).__mro__]
    for name in names:
        if name in metadata.error_handling:
            return metadata.error_handling[name]
    return None


def is_retryable(exc: BaseException, metadata: SkillMetadata) -> bool:
    """Retry transient upstream failures; never input, domain or control errors."""
    if not isinstance(exc, Exception) or isinstance(exc, _NEVER_RETRY):
        return False
    if isinstance(exc, UpstreamHTTPError) and not exc.retryable:
        return False
    if getattr(exc, "retryable", False) is True:
        return True
    if isinstance(exc, CONNECTION_LOST):
        # A dropped connection: the pool hands out a fresh one, and a write's
        # retry first checks the ledger under lock, so it cannot apply twice.
        return True
    policy = policy_for(exc, metadata)
    return policy is not None and policy.action == "retry"


def is_upstream_failure(exc: BaseException) -> bool:
    """Does this failure say the skill's dependency is unhealthy (breaker input)?

    A refusal by the domain or a 4xx means the dependency answered, so it
    counts as a healthy call.
    """
    if not isinstance(exc, Exception) or isinstance(exc, GraphBubbleUp):
        return False
    if isinstance(exc, UpstreamHTTPError):
        return exc.retryable
    if isinstance(exc, SkillTimeout | UpstreamNetworkError | ssl.SSLError | json.JSONDecodeError):
        return True
    return not isinstance(exc, _NEVER_RETRY)
