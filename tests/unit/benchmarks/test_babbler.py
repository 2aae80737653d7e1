"""The babbler reads an open-object tool's arguments from the prompt's tool list, as a
tiny model picks them up, so its made-up calls still name real parameters."""

from __future__ import annotations

import json

from benchmarks.babbler import answer

LISTED = (
    "Tools (an argument marked ? is optional; one without a type is a string):\n"
    "- search_knowledge_v1(query, partitions?: string[], limit?: integer): Search.\n"
)
TOOL = {
    "type": "function",
    "function": {"name": "search_knowledge_v1", "parameters": {"type": "object"}},
}


def test_an_open_object_tool_is_called_with_its_listed_arguments() -> None:
    body = {"messages": [{"role": "system", "content": LISTED}], "tools": [TOOL]}
    calls = [call for seed in range(20) for call in answer(body, seed).get("tool_calls") or []]
    assert calls
    for call in calls:
        args = json.loads(call["function"]["arguments"])
        assert set(args) == {"query", "partitions", "limit"}
        assert isinstance(args["partitions"], list) and isinstance(args["limit"], int)
