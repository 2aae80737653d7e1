"""What stops a role agent's loop before the model says it is done."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from checkpoints.settings import env_number

StopReason = Literal[
    "done",
    "max_steps",
    "repeated",
    "tokens",
    "time",
    "confirmation",
    "approval",
    "no_model",
    "budget",
]
BOUNDS: frozenset[StopReason] = frozenset({"max_steps", "repeated", "tokens", "time", "budget"})
"""Stops that leave the task partial. `budget`: a token budget (`ROLEGRAPH_BUDGET_*`)
kept every tier of the role's ladder from the next call."""


MAX_STEPS_ENV = "ROLEGRAPH_AGENT_MAX_STEPS"
REPEATS_ENV = "ROLEGRAPH_AGENT_REPEATS"
TOKENS_ENV = "ROLEGRAPH_AGENT_TOKENS"
SECONDS_ENV = "ROLEGRAPH_AGENT_SECONDS"
MIN_REPEATS = 2
"""One "repeat" would stop the loop at its first call."""
MIN_TOKENS = 100
"""Fewer would stop a loop before its first call came back."""
MIN_SECONDS = 0.1


@dataclass(frozen=True)
class AgentBounds:
    """Per task: model calls, identical calls in a row, tokens and model seconds."""

    max_steps: int = 10
    repeats: int = 3
    tokens: int = 30_000
    seconds: float = 120.0
    """Time spent in model calls (waiting for an operator does not count)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> AgentBounds:
        """`ROLEGRAPH_AGENT_MAX_STEPS`, `_REPEATS`, `_TOKENS` (whole numbers) and
        `_SECONDS`; unset ones keep their defaults, a bad one is a `ConfigurationError`."""
        default = cls()
        return cls(
            max_steps=int(env_number(env, MAX_STEPS_ENV, default.max_steps, int, 1)),
            repeats=int(env_number(env, REPEATS_ENV, default.repeats, int, MIN_REPEATS)),
            tokens=int(env_number(env, TOKENS_ENV, default.tokens, int, MIN_TOKENS)),
            seconds=env_number(env, SECONDS_ENV, default.seconds, float, MIN_SECONDS),
        )


def call_key(name: str, args: Any) -> str:
    """One tool call as compared for repetition."""
    return json.dumps([name, args], sort_keys=True, default=str)


def repeated(keys: Sequence[str], limit: int) -> bool:
    """Whether the last `limit` calls were one and the same."""
    return len(keys) >= limit and len(set(keys[-limit:])) == 1


def spent(steps: int, tokens: int, seconds: float, bounds: AgentBounds) -> StopReason | None:
    """The bound reached before the next model call, if any."""
    if steps >= bounds.max_steps:
        return "max_steps"
    if tokens >= bounds.tokens:
        return "tokens"
    if seconds >= bounds.seconds:
        return "time"
    return None
