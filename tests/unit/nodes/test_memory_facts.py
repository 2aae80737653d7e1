"""Memory's importance filter, decay and half-life setting (issue 9 §5)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from checkpoints.errors import ConfigurationError
from nodes.memory.facts import DEFAULT_HALF_LIFE, Fact, decay, half_life_from, is_fact


def test_importance_filter_keeps_only_stable_facts() -> None:
    assert is_fact(Fact("refund", "a", 0.9))
    assert not is_fact(Fact("refund", "a", 0.3))  # a one-off command
    assert not is_fact(Fact("refund", "a", 0.1))  # a guess


def test_half_life_setting() -> None:
    assert half_life_from({}) == DEFAULT_HALF_LIFE == timedelta(hours=24)
    assert half_life_from({"ROLEGRAPH_MEMORY_HALF_LIFE": "90m"}) == timedelta(minutes=90)
    assert half_life_from({"ROLEGRAPH_MEMORY_HALF_LIFE": "2"}) == timedelta(hours=2)
    with pytest.raises(ConfigurationError, match="ROLEGRAPH_MEMORY_HALF_LIFE"):
        half_life_from({"ROLEGRAPH_MEMORY_HALF_LIFE": "soon"})


def test_weight_halves_after_one_half_life() -> None:
    assert decay(timedelta(0), DEFAULT_HALF_LIFE) == 1.0
    assert decay(DEFAULT_HALF_LIFE, DEFAULT_HALF_LIFE) == pytest.approx(0.5)
    assert decay(2 * DEFAULT_HALF_LIFE, DEFAULT_HALF_LIFE) == pytest.approx(0.25)
