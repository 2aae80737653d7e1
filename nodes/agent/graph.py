"""The role agent's loop as a LangGraph subgraph: model step <-> tool step.

Compiled without a checkpointer of its own: invoked inside the role node, it
checkpoints into the parent's under the role node's namespace, so after an
interrupt (or a crash) the re-run role node resumes the loop where it
stopped instead of asking the model again.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from nodes.agent.model_step import model_step
from nodes.agent.state import AgentInput, AgentState
from nodes.agent.tool_step import tool_step
from nodes.context import SupportContext


def after_model(state: AgentState) -> Literal["tools", "__end__"]:
    return "__end__" if state.get("stop") else "tools"


def after_tools(state: AgentState) -> Literal["tools", "model", "__end__"]:
    if state.get("again"):
        return "tools"
    return "__end__" if state.get("stop") else "model"


@cache
def agent_graph() -> CompiledStateGraph[Any, Any, Any, Any]:
    """The compiled loop (one per process; it holds no run state)."""
    g: StateGraph[Any, Any, Any, Any] = StateGraph(
        AgentState, context_schema=SupportContext, input_schema=AgentInput
    )
    g.add_node("model", model_step)
    g.add_node("tools", tool_step)
    g.add_edge(START, "model")
    g.add_conditional_edges("model", after_model, ["tools", END])
    g.add_conditional_edges("tools", after_tools, ["tools", "model", END])
    return g.compile()
