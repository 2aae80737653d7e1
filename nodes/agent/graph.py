"""The role agent's loop as a LangGraph subgraph: model step <-> tool step.

Compiled without a checkpointer of its own: invoked inside the role node, it
checkpoints into the parent's under the role node's namespace, so after a
crash the re-run role node continues the loop from its last step instead of
asking the model again. A call waiting for an operator ends the loop's run
with the loop's state in the task's outcome (`nodes.agent.pause`); the
approved task starts the loop again from that state, at that call.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from nodes.agent.model_step import model_step
from nodes.agent.state import AgentState
from nodes.agent.tool_step import tool_step
from nodes.context import SupportContext


def first_step(state: AgentState) -> Literal["tools", "model"]:
    # An approved task resumes at the call that waited; anything else starts with the model.
    return "tools" if state.get("grant") else "model"


def after_model(state: AgentState) -> Literal["tools", "__end__"]:
    return "__end__" if state.get("stop") else "tools"


def after_tools(state: AgentState) -> Literal["model", "__end__"]:
    return "__end__" if state.get("stop") else "model"


@cache
def agent_graph() -> CompiledStateGraph[Any, Any, Any, Any]:
    """The compiled loop (one per process; it holds no run state)."""
    g: StateGraph[Any, Any, Any, Any] = StateGraph(AgentState, context_schema=SupportContext)
    g.add_node("model", model_step)
    g.add_node("tools", tool_step)
    g.add_conditional_edges(START, first_step, ["tools", "model"])
    g.add_conditional_edges("model", after_model, ["tools", END])
    g.add_conditional_edges("tools", after_tools, ["model", END])
    return g.compile()
