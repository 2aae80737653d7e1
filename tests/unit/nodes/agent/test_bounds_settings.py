"""The role agents' bounds as configured: `ROLEGRAPH_AGENT_MAX_STEPS`, `_REPEATS`,
`_TOKENS` and `_SECONDS`, read once into `AgentBounds`."""

from __future__ import annotations

import pytest

from checkpoints.errors import ConfigurationError
from nodes.agent.bounds import AgentBounds


def test_unset_or_blank_settings_keep_the_defaults() -> None:
    assert AgentBounds.from_env({}) == AgentBounds()
    blank = {"ROLEGRAPH_AGENT_MAX_STEPS": " ", "ROLEGRAPH_AGENT_SECONDS": ""}
    assert AgentBounds.from_env(blank) == AgentBounds(max_steps=10, repeats=3, seconds=120.0)


def test_each_setting_sets_its_bound() -> None:
    env = {
        "ROLEGRAPH_AGENT_MAX_STEPS": "4",
        "ROLEGRAPH_AGENT_REPEATS": " 2 ",
        "ROLEGRAPH_AGENT_TOKENS": "5000",
        "ROLEGRAPH_AGENT_SECONDS": "7.5",
    }
    assert AgentBounds.from_env(env) == AgentBounds(
        max_steps=4, repeats=2, tokens=5000, seconds=7.5
    )


@pytest.mark.parametrize(
    ("name", "raw", "floor"),
    [
        ("ROLEGRAPH_AGENT_MAX_STEPS", "0", "1"),
        ("ROLEGRAPH_AGENT_MAX_STEPS", "ten", "1"),
        ("ROLEGRAPH_AGENT_MAX_STEPS", "2.5", "1"),
        ("ROLEGRAPH_AGENT_REPEATS", "1", "2"),
        ("ROLEGRAPH_AGENT_TOKENS", "50", "100"),
        ("ROLEGRAPH_AGENT_TOKENS", "30k", "100"),
        ("ROLEGRAPH_AGENT_SECONDS", "-1", "0.1"),
        ("ROLEGRAPH_AGENT_SECONDS", "nan", "0.1"),
        ("ROLEGRAPH_AGENT_SECONDS", "inf", "0.1"),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_variable_and_the_fix(
    name: str, raw: str, floor: str
) -> None:
    with pytest.raises(ConfigurationError) as caught:
        AgentBounds.from_env({name: raw})
    message = str(caught.value)
    assert message.startswith(f"{name}={raw!r} is not usable")
    assert f"of at least {floor}" in message and "or unset it for the default" in message
    assert "\n" not in message
