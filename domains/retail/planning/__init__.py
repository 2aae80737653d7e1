"""Retail planning: plan templates, `bind:` resolvers and write preconditions."""
