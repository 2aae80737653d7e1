"""State of a role agent's loop (the subgraph's channels)."""

from __future__ import annotations

import operator
from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from nodes.agent.bounds import StopReason
from nodes.agent.findings import AgentCallData
from nodes.models.budget import BudgetScope
from nodes.state import ApprovalRequestData, ConfirmationRequestData, GrantData, TaskData


class AgentInput(TypedDict):
    """What the role node starts the loop with: the task and whose it is."""

    task: TaskData
    user_id: str
    audit_id: str
    results: dict[str, Any]
    """Dependency task id -> its payload (untrusted tool output)."""


class AgentState(AgentInput, total=False):
    """The loop's channels; a resumed loop starts with those of its pause."""

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
    over_budget: BudgetScope | None
    """The token budget that stopped the loop (`stop == "budget"`)."""
    answer: str
    confirmation: ConfirmationRequestData | None
    waiting: ApprovalRequestData | None
    """The call that stopped the loop for an operator's approval."""
    at: int | None
    """Index of that call among the last model turn's tool calls."""
    grant: GrantData | None
    """The operator's approval of the waiting call: the loop resumes with it."""
