"""Money crosses the database boundary as exact decimals.

tau2 compares amounts as Python prints them, so a float is stored as the
decimal of its shortest repr and read back with `float()`: every value
round-trips exactly, including its printed form (17.0 stays 17.0).
"""

from __future__ import annotations

import math
from decimal import Decimal


def to_decimal(value: float) -> Decimal:
    """The exact decimal of a float's repr (what `json.dumps` prints)."""
    return Decimal(repr(float(value)))


def to_float(value: Decimal, negative_zero: bool = False) -> float:
    """The float a stored decimal came from (`negative_zero` restores -0.0)."""
    return -0.0 if negative_zero else float(value)


def is_negative_zero(value: float | None) -> bool:
    """True for -0.0, which numeric cannot store but `json.dumps` prints."""
    return value is not None and value == 0 and math.copysign(1.0, value) < 0


def optional_decimal(value: float | None) -> Decimal | None:
    return None if value is None else to_decimal(value)


def optional_float(value: Decimal | None, negative_zero: bool = False) -> float | None:
    return None if value is None else to_float(value, negative_zero)
