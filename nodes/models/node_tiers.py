"""Which tier each model-using harness node starts its ladder at.

Read once from `ROLEGRAPH_TIER_<NODE>` (`large`, `small` or `rules`) into
`NodeTiers`, carried on `ModelTiers`; `descend` starts each call there. `rules`
means the node never calls a model. Role nodes take their tier from their role
file instead, and a node without a setting keeps the tier its call site declares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from nodes.errors import ModelConfigError

NodeTier = Literal["large", "small", "rules"]
"""Where a node's ladder starts; `rules` asks no model."""
_TIERS: Mapping[str, NodeTier] = MappingProxyType(
    {"large": "large", "small": "small", "rules": "rules"}
)

NODE_SETTINGS: Mapping[str, str] = MappingProxyType(
    {
        "intake": "ROLEGRAPH_TIER_INTAKE",
        "planner": "ROLEGRAPH_TIER_PLANNER",
        "compose": "ROLEGRAPH_TIER_COMPOSE",
        "review": "ROLEGRAPH_TIER_REVIEW",
        "compress": "ROLEGRAPH_TIER_SUMMARY",
    }
)
"""Ledger node name -> its setting; `compress` is the conversation summary (memory)."""

DEFAULT_NODE_TIERS: Mapping[str, NodeTier] = MappingProxyType(
    {
        "intake": "large",
        "planner": "large",
        # Compose words the answer on the small tier, checked against the template
        # (`nodes.compose_model`); the reviewer's checks are rules.
        "compose": "small",
        "review": "rules",
        "compress": "small",
    }
)


@dataclass(frozen=True)
class NodeTiers:
    """The configured start tier per harness node."""

    tiers: Mapping[str, NodeTier] = field(default_factory=lambda: DEFAULT_NODE_TIERS)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> NodeTiers:
        """Read every `ROLEGRAPH_TIER_<NODE>`; unset keeps the default."""
        return cls(MappingProxyType({n: _tier(env, n) for n in NODE_SETTINGS}))

    def start(self, node: str, declared: NodeTier) -> NodeTier:
        """The tier `node` starts at: its setting, else what its call site declares."""
        return self.tiers.get(node, declared)

    def describe(self) -> str:
        """`node=tier` for each node whose tier differs from the default."""
        changed = [f"{n}={t}" for n, t in self.tiers.items() if DEFAULT_NODE_TIERS.get(n) != t]
        return ", ".join(changed)


def _tier(env: Mapping[str, str], node: str) -> NodeTier:
    name = NODE_SETTINGS[node]
    raw = env.get(name, "").strip().lower()
    if not raw:
        return DEFAULT_NODE_TIERS[node]
    tier = _TIERS.get(raw)
    if tier is None:
        raise ModelConfigError(
            f"{name}={raw[:40]!r} is not a tier; set large, small or rules,"
            f" or unset it for {DEFAULT_NODE_TIERS[node]}"
        )
    return tier
