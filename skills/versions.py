"""Version constraints in role files: `1.x`, `1.2.x`, `1.2.3`, `^1.2.0`, `~1.2.0`
or comparator lists such as `>=1.0.0,<2.0.0`."""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUM = r"(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?"
_COMPARATOR = re.compile(r"^(>=|<=|>|<|==|=|\^|~)?\s*" + _NUM + r"$")

Version = tuple[int, int, int]


@dataclass(frozen=True)
class VersionSpec:
    """A parsed constraint: a conjunction of half-open bounds."""

    text: str
    lower: Version
    upper: Version | None  # exclusive
    lower_inclusive: bool = True

    @property
    def major(self) -> int:
        """The major version the constraint starts from."""
        return self.lower[0]

    def matches(self, version: str) -> bool:
        """True when `version` (x.y.z) satisfies the constraint."""
        v = _parse_exact(version)
        above = v >= self.lower if self.lower_inclusive else v > self.lower
        return above and (self.upper is None or v < self.upper)


def parse_version_spec(text: str) -> VersionSpec:
    """Parse a constraint; ValueError with a readable reason when malformed."""
    parts = [p for p in re.split(r"[,\s]+", str(text).strip()) if p]
    if not parts:
        raise ValueError("empty version constraint")
    lower: Version = (0, 0, 0)
    upper: Version | None = None
    inclusive = True
    for part in parts:
        low, high, incl = _bounds(part)
        if low is not None and low >= lower:
            lower, inclusive = low, incl
        if high is not None and (upper is None or high < upper):
            upper = high
    if upper is not None and upper <= lower:
        raise ValueError(f"version constraint {text!r} admits no version")
    return VersionSpec(text=str(text), lower=lower, upper=upper, lower_inclusive=inclusive)


def _bounds(part: str) -> tuple[Version | None, Version | None, bool]:
    match = _COMPARATOR.match(part)
    if match is None:
        raise ValueError(f"malformed version constraint {part!r}")
    op, *raw = match.groups()
    nums = [int(n) for n in raw if n is not None and n not in ("x", "*")]
    wildcard = len(nums) < 3
    base: Version = (*nums, 0, 0, 0)[:3]  # type: ignore[assignment]
    if op in (None, "=", "==", "~") and wildcard:
        return base, _bump(nums), True
    if op in (None, "=", "=="):
        return base, (base[0], base[1], base[2] + 1), True
    if op == "^":
        return base, (base[0] + 1, 0, 0), True
    if op == "~":
        return base, (base[0], base[1] + 1, 0), True
    return _comparator(op, base)


def _comparator(op: str, base: Version) -> tuple[Version | None, Version | None, bool]:
    if op == ">=":
        return base, None, True
    if op == ">":
        return base, None, False
    if op == "<":
        return None, base, True
    return None, (base[0], base[1], base[2] + 1), True  # "<="


def _bump(nums: list[int]) -> Version:
    if len(nums) == 1:
        return (nums[0] + 1, 0, 0)
    if len(nums) == 2:
        return (nums[0], nums[1] + 1, 0)
    return (nums[0], nums[1], nums[2] + 1)


def _parse_exact(version: str) -> Version:
    parts = version.split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise ValueError(f"not a x.y.z version: {version!r}")
    return (int(parts[0]), int(parts[1]), int(parts[2]))
