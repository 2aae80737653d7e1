"""Model tiers of the support graph: configured chat models, prompts, the ladder."""

from nodes.models.tiers import ModelTiers

__all__ = ["ModelTiers"]
