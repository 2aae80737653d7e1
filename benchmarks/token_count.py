"""How the token benchmark counts a model call's prompt, and what a prefix cache reuses.

A prompt is a sequence of units: its tool schemas, then each message in the
OpenAI wire form. Tokens are `count_tokens_approximately` (the context
budget's counter) per message, the tool schemas as their JSON.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage, convert_to_openai_messages
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.tools import BaseTool

from nodes.agent.tools import ToolSchema
from nodes.conversation.budget import count_tokens


@dataclass(frozen=True)
class Prompt:
    """One model call as the model received it."""

    tools: tuple[ToolSchema, ...]
    messages: tuple[BaseMessage, ...]


def units(prompt: Prompt) -> list[tuple[str, int]]:
    """The prompt as (wire form, tokens) units: the tool schemas, then each message."""
    tools: list[BaseTool | dict[str, Any]] = list(prompt.tools)
    first = (wire(tools), count_tokens_approximately([], tools=tools) if tools else 0)
    rest = [(wire(convert_to_openai_messages(m)), count_tokens([m])) for m in prompt.messages]
    return [first, *rest]


def tokens(prompt: Prompt) -> int:
    """Prompt tokens of one call."""
    return sum(n for _, n in units(prompt))


def reused(prompts: Sequence[Prompt]) -> int:
    """Tokens of each call's prefix identical to the previous call's, summed."""
    total, previous = 0, list[tuple[str, int]]()
    for prompt in prompts:
        current = units(prompt)
        for (a, n), (b, _) in zip(current, previous, strict=False):
            if a != b:
                break
            total += n
        previous = current
    return total


def wire(value: object) -> str:
    """A unit's wire form as compared: its JSON, keys sorted."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
