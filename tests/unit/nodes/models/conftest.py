"""Fixtures for the model-tier unit tests: scripted models and a context around them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from nodes.context import SupportContext
from nodes.domain import load_domain
from nodes.models import ModelTiers
from tests.fakes.chat import ScriptedChatModel


@pytest.fixture
def scripted() -> Callable[..., ScriptedChatModel]:
    """`scripted(reply1, reply2, ..., name=...)` -> a fresh scripted chat model."""

    def make(*script: Any, name: str = "scripted-model") -> ScriptedChatModel:
        return ScriptedChatModel(script=list(script), model_name=name)

    return make


@pytest.fixture
def context() -> Callable[..., SupportContext]:
    """`context(models, pool=None)` -> a minimal SupportContext for the ladder."""

    def make(models: ModelTiers | None, pool: Any = None) -> SupportContext:
        return SupportContext(
            domain=load_domain(), skills=None, registry=None, roles={}, pool=pool, models=models
        )  # type: ignore[arg-type]

    return make
