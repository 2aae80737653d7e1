"""Slot reads of an `Understanding`, by slot name.

The names mirror the generic `Understanding.slot(name)` / `.first(name)`
accessors; until those exist this view reads the typed `Slots` model, so the
templates already speak of slots by name only.
"""

from __future__ import annotations

from dataclasses import dataclass

from nodes.contracts import Understanding


@dataclass(frozen=True)
class SlotView:
    """Read-only slot values of one understanding."""

    understanding: Understanding

    def slot(self, name: str) -> tuple[str, ...]:
        """Every value of slot `name` (empty when the request has none)."""
        value = getattr(self.understanding.slots, name, None)
        if value is None:
            return ()
        return tuple(value) if isinstance(value, tuple) else (str(value),)

    def first(self, name: str) -> str | None:
        """The first value of slot `name`, or None."""
        values = self.slot(name)
        return values[0] if values else None
