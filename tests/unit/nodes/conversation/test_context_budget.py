"""The context budget: `ROLEGRAPH_CONTEXT_TOKENS`, the threshold, the token count."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage

from checkpoints.errors import ConfigurationError
from nodes.conversation.budget import (
    DEFAULT_CONTEXT_TOKENS,
    ContextBudget,
    context_budget_from,
    count_tokens,
)


def test_default_budget_and_threshold() -> None:
    budget = context_budget_from({})
    assert budget == ContextBudget() and budget.tokens == DEFAULT_CONTEXT_TOKENS == 4000
    assert budget.limit == 3200  # 80 %
    assert context_budget_from({"ROLEGRAPH_CONTEXT_TOKENS": " 12000 "}).tokens == 12000


@pytest.mark.parametrize("raw", ["lots", "-4000", "4000.5", "499", "0", "4k"])
def test_an_unusable_budget_is_one_line_naming_the_variable(raw: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        context_budget_from({"ROLEGRAPH_CONTEXT_TOKENS": raw})
    message = str(caught.value)
    assert "ROLEGRAPH_CONTEXT_TOKENS" in message and "at least 500" in message
    assert "\n" not in message


def test_the_budget_is_exceeded_past_its_threshold() -> None:
    budget = ContextBudget(tokens=1000)
    short = [HumanMessage("x" * 400)]
    long = [HumanMessage("x" * 4000)]
    assert count_tokens(short) < 800 < count_tokens(long)
    assert not budget.exceeded_by(short) and budget.exceeded_by(long)
    assert not ContextBudget(tokens=10_000).exceeded_by(long)
