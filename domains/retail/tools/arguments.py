"""Argument models of the retail skills: what `validate_input` accepts.

Strict pydantic models (no type coercion, unknown keys rejected) with
ASCII-only id patterns, so an injected string, an overlong id, a number where
a string belongs or look-alike Unicode digits never reach the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from skills.errors import SkillValidationError

MAX_ITEMS = 20  # tau2 orders hold at most 5 lines; more is not one customer's request

OrderId = Annotated[str, StringConstraints(pattern=r"^#W[0-9]{7}$")]
UserId = Annotated[str, StringConstraints(pattern=r"^[a-z]{1,40}(_[a-z]{1,40}){0,3}_[0-9]{4}$")]
ProductId = Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
ItemId = Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
TrackingId = Annotated[str, StringConstraints(pattern=r"^[0-9A-Za-z]{6,40}$")]
PaymentMethodId = Annotated[
    str, StringConstraints(pattern=r"^(gift_card|credit_card|paypal)_[0-9]{7}$")
]
Email = Annotated[
    str,
    StringConstraints(
        max_length=254,
        pattern=r"^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+$",
    ),
]
# Free text: any script, but no control characters (no header or log injection).
Name = Annotated[
    str, StringConstraints(min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f]+$")
]
Line = Annotated[str, StringConstraints(max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$")]
Zip = Annotated[str, StringConstraints(pattern=r"^[0-9]{5}(-[0-9]{4})?$")]
ItemIds = Annotated[list[ItemId], Field(max_length=MAX_ITEMS)]


class Args(BaseModel):
    """Base of every retail argument model."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class AddressArgs(Args):
    address1: Annotated[Line, Field(min_length=1)]
    address2: Line
    city: Annotated[Line, Field(min_length=1)]
    state: Annotated[Line, Field(min_length=1, max_length=40)]
    country: Annotated[Line, Field(min_length=1, max_length=60)]
    zip: Zip


class EmailArgs(Args):
    email: Email


class NameZipArgs(Args):
    first_name: Name
    last_name: Name
    zip: Zip


class UserArgs(Args):
    user_id: UserId


class OrderArgs(Args):
    order_id: OrderId


class ProductArgs(Args):
    product_id: ProductId


class ItemArgs(Args):
    item_id: ItemId


class NoArgs(Args):
    pass


class CancelArgs(OrderArgs):
    reason: Literal["no longer needed", "ordered by mistake"]


class OrderAddressArgs(OrderArgs, AddressArgs):
    pass


class UserAddressArgs(UserArgs, AddressArgs):
    pass


class PaymentArgs(OrderArgs):
    payment_method_id: PaymentMethodId


class ReturnArgs(PaymentArgs):
    item_ids: Annotated[ItemIds, Field(min_length=1)]


class SwapArgs(PaymentArgs):
    item_ids: Annotated[ItemIds, Field(min_length=1)]
    new_item_ids: Annotated[ItemIds, Field(min_length=1)]


class ExpressionArgs(Args):
    expression: Annotated[str, StringConstraints(min_length=1, max_length=500)]


class ShipmentArgs(Args):
    """A shipment by tracking id, or every shipment of an order; `as_of` replaces the clock."""

    tracking_id: TrackingId | None = None
    order_id: OrderId | None = None
    as_of: Annotated[str, StringConstraints(max_length=40)] | None = None

    @model_validator(mode="after")
    def _one_target(self) -> ShipmentArgs:
        if (self.tracking_id is None) == (self.order_id is None):
            raise ValueError("give exactly one of tracking_id and order_id")
        if self.as_of is not None:
            moment = datetime.fromisoformat(self.as_of)
            if moment.tzinfo is None:
                raise ValueError("as_of needs a time zone offset")
        return self


class DelayArgs(ShipmentArgs):
    stall_hours: Annotated[float, Field(gt=0, le=24 * 60)] | None = None


class SummaryArgs(Args):
    """Results of earlier steps, by name, to summarise; nothing else is read."""

    topic: Annotated[Line, Field(min_length=1, max_length=120)]
    results: Annotated[dict[str, Any], Field(max_length=20)]


class TransferArgs(Args):
    summary: Annotated[str, StringConstraints(min_length=1, max_length=2000)]


class NotificationArgs(Args):
    """An email to a user's account address (or, at higher risk, another recipient)."""

    user_id: UserId
    subject: Annotated[Line, Field(min_length=1, max_length=150)]
    body: Annotated[str, StringConstraints(min_length=1, max_length=5000)]
    recipient: Email | None = None
    order_id: OrderId | None = None


def parse_args(model: type[Args], args: Mapping[str, Any]) -> dict[str, Any]:
    """Validate `args` against `model`; the normalised dict, or `SkillValidationError`."""
    if not isinstance(args, Mapping):
        raise SkillValidationError("arguments must be an object of named values")
    try:
        parsed = model.model_validate(dict(args))
    except ValidationError as exc:
        raise SkillValidationError(describe(exc)) from None
    return parsed.model_dump(exclude_none=True)


def describe(exc: ValidationError) -> str:
    """One line naming the first bad field, without echoing the hostile value."""
    error = exc.errors()[0]
    field = ".".join(str(part) for part in error["loc"]) or "(arguments)"
    return f"argument '{field}' is invalid: {error['msg']}; check the skill's parameters"
