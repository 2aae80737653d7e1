"""Errors of the node layer: start-up configuration, runtime, control signals."""

from __future__ import annotations

from checkpoints.errors import InvalidArgument
from skills.errors import RoleConfigError


class PromptConfigError(RoleConfigError):
    """A prompt file is missing or malformed (start-up)."""


class ModelConfigError(RoleConfigError):
    """The model environment variables are inconsistent (start-up)."""


class PlanRejected(Exception):
    """A plan failed deterministic validation; it never runs."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class ModelOutputInvalid(Exception):
    """A model answered with something that failed schema or domain checks."""

    def __init__(self, node: str, problem: str) -> None:
        super().__init__(f"{node}: model output rejected: {problem}")
        self.node = node
        self.problem = problem


class BindingError(Exception):
    """A task argument could not be derived from earlier results."""

    code = "binding_error"

    def __init__(self, name: str, hint: str) -> None:
        super().__init__(f"cannot fill {name}: {hint}")
        self.name = name


class UnusableValue(BindingError):
    """What the customer gave or named cannot fill the argument: no such kind of record
    on their account ("my PayPal" with none on file), an address not written as one.

    The customer's "no", not the system failing: the step is declined (`nodes.outcomes`)
    and the answer says what to give instead."""

    code = "unusable_value"


class PreconditionFailed(BindingError):
    """The record a write depends on is in a state that forbids the write."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)
        self.name = "precondition"


class ModelCallTimeout(TimeoutError):
    """A model call got no answer within its timeout.

    `clipped` when the timeout was cut short by the request's deadline rather
    than the full per-call timeout: weaker evidence that the endpoint is down.
    """

    def __init__(self, seconds: float, *, clipped: bool) -> None:
        super().__init__(f"no answer within {seconds:.1f}s")
        self.seconds = seconds
        self.clipped = clipped


class ModelDeadlineExceeded(Exception):
    """The request's time for model calls (ROLEGRAPH_REQUEST_TIMEOUT) is spent."""


class AnswerRefused(InvalidArgument):
    """A resume value answers no pending request, or not in a way it allows."""
