"""A minimal context for the compress node: the library pack (no database, no store)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from nodes.context import SupportContext
from nodes.conversation.budget import ContextBudget
from nodes.domain import load_domain
from nodes.models import ModelTiers


@pytest.fixture
def context() -> Callable[..., SupportContext]:
    """`context(models=None, tokens=500)` -> a SupportContext for the compress node."""

    def make(models: ModelTiers | None = None, tokens: int = 500) -> SupportContext:
        return SupportContext(
            domain=load_domain("library"), skills=None, registry=None, roles={}, pool=None,
            models=models, context_budget=ContextBudget(tokens=tokens),
        )  # type: ignore[arg-type]  # fmt: skip

    return make


def state_of(messages: list[Any], summary: str | None = None) -> dict[str, Any]:
    """A thread's state as the compress node reads it."""
    state: dict[str, Any] = {"messages": messages, "user_id": "m1", "thread_id": "t-unit"}
    if summary is not None:
        state["summary"] = summary
    return state
