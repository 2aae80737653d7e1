"""State of a role agent's loop (the subgraph's channels)."""

from __future__ import annotations

import operator
from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from nodes.agent.bounds import StopReason
from nodes.agent.findings import AgentCallData
from nodes.state import ConfirmationRequestData, TaskData


class AgentInput(TypedDict):
    """What the role node starts the loop with: the task and whose it is."""

    task: TaskData
    user_id: str
    audit_id: str
    results: dict[str, Any]
    """Dependency task id -> its payload (untrusted tool output)."""


class AgentState(AgentInput, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    """The loop's steps only: the model's turns and the tool results."""
    loaded: list[str]
    """Skills whose instructions are in context, least recently used first."""
    calls: Annotated[list[AgentCallData], operator.add]
    keys: list[str]
    """Every tool call the model asked for, as compared for repetition."""
    steps: int
    tokens: int
    seconds: float
    stop: StopReason | None
    again: bool
    """The operator's answer was refused: the tool step asks again."""
    answer: str
    confirmation: ConfirmationRequestData | None
