"""Retail intent data: the labelling rules (LABELS.md) and the generated training corpus."""
