"""The scripted chat model plays function-calling turns and records what it was offered."""

from __future__ import annotations

import pytest
from langchain_core.tools import tool

from tests.fakes.chat import (
    ScriptedChatModel,
    ScriptExhausted,
    ToolCalls,
    forget_scripts,
    unconsumed_scripts,
)


@tool
def look_up(record_id: str) -> str:
    """Look up one record."""
    return record_id


@tool
def change(record_id: str) -> str:
    """Change one record."""
    return record_id


async def test_a_tool_call_turn_then_text_and_the_offered_tools_are_recorded() -> None:
    model = ScriptedChatModel(script=[ToolCalls.of(("look_up", {"record_id": "r1"})), "done"])
    bound = model.bind_tools([look_up], max_tokens=40)
    first = await bound.ainvoke("which record?")
    assert [(c["name"], c["args"]) for c in first.tool_calls] == [("look_up", {"record_id": "r1"})]
    assert first.usage_metadata and first.usage_metadata["output_tokens"] == model.output_tokens
    assert (await bound.ainvoke("and?")).content == "done"
    assert model.bound == [["look_up"]] and "change" not in model.bound[0]
    assert model.call_kwargs[0]["max_tokens"] == 40
    with pytest.raises(ScriptExhausted):
        await bound.ainvoke("more")
    assert unconsumed_scripts() == ["scripted-model: called 1 time(s) past its script of 2"]
    forget_scripts()
