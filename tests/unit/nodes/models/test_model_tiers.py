"""ModelTiers: built from the environment, empty without models, a ladder of tiers."""

from __future__ import annotations

import pytest
from langchain_openai import ChatOpenAI

from nodes.errors import ModelConfigError
from nodes.models import ModelTiers
from nodes.models.tiers import NO_MODEL_NOTICE
from tests.fakes.chat import ScriptedChatModel

LOCAL = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": "k"}


def test_no_model_configured_is_empty_with_a_notice() -> None:
    tiers = ModelTiers.from_env({"OPENAI_API_KEY": "k"})
    assert not tiers.available
    assert tiers.ladder() == ()
    assert tiers.describe() == NO_MODEL_NOTICE
    assert "ROLEGRAPH_MODEL_SMALL/LARGE unset" in tiers.describe()


def test_blank_model_names_count_as_unset() -> None:
    assert not ModelTiers.from_env({**LOCAL, "ROLEGRAPH_MODEL_SMALL": "  "}).available


def test_from_env_builds_chat_openai_without_client_retries() -> None:
    env = {**LOCAL, "ROLEGRAPH_MODEL_SMALL": "tiny", "ROLEGRAPH_MODEL_TIMEOUT": "4.5"}
    tiers = ModelTiers.from_env(env)
    assert tiers.available and tiers.large is None
    small = tiers.small
    assert isinstance(small, ChatOpenAI)
    assert small.model_name == "tiny"
    assert small.max_retries == 0
    assert small.request_timeout == 4.5
    assert small.openai_api_base == "http://127.0.0.1:9/v1"
    assert tiers.timeout_s == 4.5
    assert [t for t, _ in tiers.ladder()] == ["small"]
    assert "small=tiny" in tiers.describe() and "large unset" in tiers.describe()


def test_both_tiers_ladder_from_large_down() -> None:
    env = {**LOCAL, "ROLEGRAPH_MODEL_SMALL": "tiny", "ROLEGRAPH_MODEL_LARGE": "big"}
    tiers = ModelTiers.from_env(env)
    assert [t for t, _ in tiers.ladder("large")] == ["large", "small"]
    assert [t for t, _ in tiers.ladder("small")] == ["small"]
    assert tiers.describe().startswith("models: large=big, small=tiny")


def test_local_endpoint_needs_no_key() -> None:
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "ROLEGRAPH_MODEL_LARGE": "llama"}
    assert ModelTiers.from_env(env).large is not None


def test_model_without_key_or_endpoint_is_a_config_error() -> None:
    with pytest.raises(ModelConfigError, match="OPENAI_API_KEY"):
        ModelTiers.from_env({"ROLEGRAPH_MODEL_SMALL": "tiny"})


@pytest.mark.parametrize("name", ["ROLEGRAPH_MODEL_TIMEOUT", "ROLEGRAPH_REQUEST_TIMEOUT"])
@pytest.mark.parametrize("raw", ["abc", "0", "-3", "nan", "inf"])
def test_bad_timeout_is_a_config_error(name: str, raw: str) -> None:
    with pytest.raises(ModelConfigError, match=f"^{name}="):
        ModelTiers.from_env({**LOCAL, name: raw})


def test_the_request_deadline_is_read_once_with_a_default() -> None:
    assert ModelTiers.from_env(LOCAL).request_timeout_s == 60.0
    env = {**LOCAL, "ROLEGRAPH_MODEL_SMALL": "tiny", "ROLEGRAPH_REQUEST_TIMEOUT": "12"}
    tiers = ModelTiers.from_env(env)
    assert tiers.request_timeout_s == 12.0
    assert "30s per call, 12s per request" in tiers.describe()


def test_direct_construction_with_any_chat_model() -> None:
    fake = ScriptedChatModel(model_name="fake-large")
    tiers = ModelTiers(large=fake)
    assert tiers.available
    assert tiers.ladder() == (("large", fake),)
    assert "large=fake-large" in tiers.describe()
