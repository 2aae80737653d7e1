"""A role agent's loop paused for an operator's approval, carried in the task's outcome.

The approval is asked by the support graph's approval node, like any other:
the same inbox, the same check that only an operator answers, the same
withdrawal when the customer starts a new turn. The paused loop (its steps,
what it loaded and called, its spend) is the outcome's payload, so when the
approved task is sent again the loop continues at the call that waited —
with the operator's grant, and without asking the model for anything before.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import messages_from_dict, messages_to_dict
from pydantic import BaseModel, ConfigDict

from nodes.agent.findings import AgentCall
from nodes.agent.state import AgentState


class AgentPause(BaseModel):
    """The loop's state at the call waiting for approval."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    goal: str
    messages: list[dict[str, Any]]
    """The loop's steps (`messages_to_dict`), up to the model turn holding the call."""
    at: int
    """Index of the waiting call among that turn's tool calls."""
    loaded: list[str] = []
    calls: list[AgentCall] = []
    keys: list[str] = []
    steps: int = 0
    tokens: int = 0
    seconds: float = 0.0


def pause_of(goal: str, end: AgentState) -> AgentPause:
    """The pause recorded from the loop's final state."""
    return AgentPause(
        goal=goal,
        messages=messages_to_dict(end.get("messages") or []),
        at=int(end.get("at") or 0),
        loaded=list(end.get("loaded") or []),
        calls=[AgentCall.model_validate(c) for c in end.get("calls") or []],
        keys=list(end.get("keys") or []),
        steps=int(end.get("steps") or 0),
        tokens=int(end.get("tokens") or 0),
        seconds=float(end.get("seconds") or 0.0),
    )


def resumed(pause: AgentPause) -> dict[str, Any]:
    """The loop's channels to start from when the approved task is sent again."""
    return {
        "messages": messages_from_dict(pause.messages),
        "at": pause.at,
        "loaded": pause.loaded,
        "calls": [c.model_dump(mode="json") for c in pause.calls],
        "keys": pause.keys,
        "steps": pause.steps,
        "tokens": pause.tokens,
        "seconds": pause.seconds,
    }
