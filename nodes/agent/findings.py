"""What a role agent found: the payload of a goal task's outcome.

The model's closing text is untrusted model output; only the calls and their
results are facts. `nodes.agent.answer` decides what of it an answer may state.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict

from nodes.agent.bounds import StopReason

CallStatus = Literal["succeeded", "failed", "rejected", "not_run"]


class AgentCall(BaseModel):
    """One tool call the agent made through the skill runtime."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    skill: str
    args: dict[str, Any]
    status: CallStatus
    payload: Any = None
    """Untrusted tool output."""
    error_code: str | None = None


class AgentCallData(TypedDict):
    """`AgentCall`, as stored."""

    skill: str
    args: dict[str, Any]
    status: CallStatus
    payload: Any
    error_code: str | None


class AgentFindings(BaseModel):
    """A goal task's payload: its calls in order, the model's closing text, why it stopped."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    goal: str
    calls: tuple[AgentCall, ...] = ()
    answer: str = ""
    """The model's closing text: untrusted, stated only once checked against `calls`."""
    stopped: StopReason

    @property
    def succeeded(self) -> tuple[AgentCall, ...]:
        """The calls that returned a result."""
        return tuple(c for c in self.calls if c.status == "succeeded")
