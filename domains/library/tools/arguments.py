"""Argument models of the library skills: what `validate_input` accepts.

Strict models (no coercion, unknown keys rejected) with ASCII-only id
patterns, so an injected string or look-alike digits never reach a query.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from skills.errors import SkillValidationError

MemberId = Annotated[str, StringConstraints(pattern=r"^M-[0-9]{4}$")]
BookId = Annotated[str, StringConstraints(pattern=r"^BK-[0-9]{4}$")]
LoanId = Annotated[str, StringConstraints(pattern=r"^LN-[0-9]{5}$")]
# One line of any script, no control characters (no header or log injection).
Line = Annotated[
    str, StringConstraints(min_length=1, max_length=150, pattern=r"^[^\x00-\x1f\x7f]+$")
]
WAIVE_REASONS = ("first offence", "library error", "hardship")


class Args(BaseModel):
    """Base of every library argument model."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class MemberArgs(Args):
    member_id: MemberId


class BookArgs(Args):
    book_id: BookId


class LoanArgs(Args):
    loan_id: LoanId


class WaiveArgs(Args):
    loan_id: LoanId
    reason: Literal["first offence", "library error", "hardship"]


class NotificationArgs(Args):
    """A message to the member's own address."""

    member_id: MemberId
    subject: Line
    body: Annotated[str, StringConstraints(min_length=1, max_length=5000)]
    loan_id: LoanId | None = None


def parse_args(model: type[Args], args: Mapping[str, Any]) -> dict[str, Any]:
    """Validate `args` against `model`; the normalised dict, or `SkillValidationError`."""
    if not isinstance(args, Mapping):
        raise SkillValidationError("arguments must be an object of named values")
    try:
        parsed = model.model_validate(dict(args))
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(part) for part in error["loc"]) or "(arguments)"
        # The hostile value is never echoed back.
        raise SkillValidationError(
            f"argument '{field}' is invalid: {error['msg']}; check the skill's parameters"
        ) from None
    return parsed.model_dump(exclude_none=True)
