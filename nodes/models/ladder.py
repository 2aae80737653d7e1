"""Model tiers for intake and planning (large -> small -> rules)."""

from __future__ import annotations

from typing import Any

from nodes.contracts import Understanding


async def model_understanding(
    ctx: Any, state: dict[str, Any], rules: Understanding
) -> Understanding:
    """Placeholder until the model ladder lands: the rules tier's reading."""
    return rules
