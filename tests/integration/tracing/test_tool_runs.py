"""Skill calls are LangChain tool runs: any callback handler (LangSmith's, Langfuse's,
a recorder) sees them under the role node that made them, served graph included."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler

from graphs.api import new_thread_id
from graphs.bound import ContextBoundGraph, bind_context
from graphs.studio import traced
from nodes.identity import AUTH_USER_KEY, Identity
from skills.middleware.tool_run import SKILL_TAG, SkillRun
from tests.integration.graph.helpers import user_with_orders
from tests.support_fixtures import Support


class Recorder(BaseCallbackHandler):
    """Records chain and tool runs as a tracer would."""

    def __init__(self) -> None:
        self.chains: dict[UUID, str] = {}
        self.tools: list[dict[str, Any]] = []
        self.ends: dict[UUID, Any] = {}

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID, **kw: Any) -> None:
        self.chains[run_id] = str(kw.get("name"))

    def on_tool_start(self, serialized: Any, input_str: str, *, run_id: UUID, **kw: Any) -> None:
        self.tools.append({"run_id": run_id, "name": kw.get("name"), **kw})

    def on_tool_end(self, output: Any, *, run_id: UUID, **kw: Any) -> None:
        self.ends[run_id] = output


async def _track(graph: Any, support: Support, recorder: Recorder | None, **config: Any) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed")
    customer = Identity("customer", user).as_auth_user()
    configurable = {"thread_id": new_thread_id(), AUTH_USER_KEY: customer}
    run_config: dict[str, Any] = {"configurable": configurable}
    if recorder is not None:
        run_config["callbacks"] = [recorder]
    payload = {"text": f"where is my package for {order}?", "user_id": user}
    await graph.ainvoke(payload, run_config, **config)


async def test_a_recorder_sees_each_skill_call_as_a_tool_run_of_its_role_node(
    support: Support,
) -> None:
    recorder = Recorder()
    await _track(support.graph, support, recorder, context=support.ctx)
    assert {"LangGraph", "turn", "intake", "planner", "role_logistics_analyst"} <= set(
        recorder.chains.values()
    )
    (tool,) = [t for t in recorder.tools if t["name"] == "track_shipment_v1"]
    assert SKILL_TAG in tool["tags"]
    assert tool["metadata"]["rolegraph_role"] == "logistics_analyst"
    assert tool["metadata"]["rolegraph_skill_version"].count(".") == 2
    assert recorder.chains[tool["parent_run_id"]] == "role_logistics_analyst"
    assert tool["inputs"] == {"order_id": tool["inputs"]["order_id"]}
    outcome = recorder.ends[tool["run_id"]]
    assert isinstance(outcome, SkillRun)
    assert outcome.status == "success" and outcome.retries == 0
    assert outcome.breaker_state == "closed" and outcome.payload


async def test_the_served_graph_keeps_its_context_with_callbacks_bound(support: Support) -> None:
    bound = bind_context(support.graph, support.ctx)
    assert traced(bound, {}) is bound  # no OTLP endpoint: the graph as it was
    recorder = Recorder()
    served = bound.with_config(callbacks=[recorder])
    assert isinstance(served, ContextBoundGraph)
    await _track(served, support, None)
    assert [t["name"] for t in recorder.tools].count("track_shipment_v1") == 1
