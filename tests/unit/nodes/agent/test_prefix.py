"""The role agent's prompt: a stable prefix byte-identical across requests and customers,
then memory, the turn and the loop's steps, in that order, a loaded skill's
instructions shown where it was loaded."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from nodes.agent.calls import offered
from nodes.agent.disclosure import loaded_line
from nodes.agent.model_step import prompt_of
from nodes.agent.prompt import EVICTED, prefix_hash
from nodes.agent.tools import LOAD_SKILL, signature, tool_schemas
from nodes.bootstrap import load_static_config
from nodes.context import SupportContext
from nodes.contracts import Task
from nodes.domain import load_domain
from skills.context import RuntimeContext
from skills.runtime import SkillRuntime


def context() -> SupportContext:
    registry, roles = load_static_config()
    runtime = SkillRuntime(registry, roles, RuntimeContext(pool=None))
    return SupportContext(
        domain=load_domain(), skills=runtime, registry=registry, roles=roles, pool=None
    )


def state(user: str, goal: str, **more: Any) -> Any:
    task = {"id": "g1", "role": "order_query", "skill": "", "goal": goal, "args": {}}
    return {"task": task, "user_id": user, "audit_id": f"aud-{user}", "results": {}, **more}


def test_the_prefix_is_byte_identical_across_customers_and_requests() -> None:
    ctx = context()
    spec = ctx.roles["order_query"]
    one = prompt_of(ctx, spec, state("ann_lee_1234", "which orders had a lamp"))
    two = prompt_of(
        ctx,
        spec,
        state("bob_kim_5678", "what did I pay for #W1234567", loaded=["get_order_details_v1"]),
    )
    assert isinstance(one[0], SystemMessage) and isinstance(two[0], SystemMessage)
    assert prefix_hash(str(one[0].content)) == prefix_hash(str(two[0].content))
    assert one[1:] != two[1:]
    # Nothing of the request or the customer is in the prefix.
    assert "ann_lee" not in str(one[0].content) and "lamp" not in str(one[0].content)


def test_the_prefix_lists_signatures_and_one_line_descriptions_only() -> None:
    ctx = context()
    spec = ctx.roles["order_query"]
    prefix = str(prompt_of(ctx, spec, state("ann_lee_1234", "x"))[0].content)
    kept = ctx.domain.planning.unplannable
    for skill_id in spec.execute - kept:
        assert f"- {skill_id}(" in prefix
    assert "- get_order_details_v1(order_id): An order's status" in prefix
    assert "cancel_pending_order_v1" not in prefix
    assert not [s for s in kept if s in prefix]
    # A package's full instructions are not in it until loaded.
    assert "## Parameters" not in prefix


def load(name: str, call_id: str, text: str | None = None) -> list[Any]:
    """A `load_skill` step as the loop stores it: the call, then its short result."""
    call = AIMessage(
        content="", tool_calls=[{"name": LOAD_SKILL, "args": {"name": name}, "id": call_id}]
    )
    told = text if text is not None else loaded_line(name)
    return [call, ToolMessage(content=told, tool_call_id=call_id, name=LOAD_SKILL)]


def test_order_is_prefix_turn_then_steps_with_instructions_where_loaded() -> None:
    ctx = context()
    spec = ctx.roles["order_query"]
    steps = load("get_order_details_v1", "c1")
    messages = prompt_of(
        ctx, spec, state("ann_lee_1234", "find it", loaded=["get_order_details_v1"], messages=steps)
    )
    kinds = [type(m) for m in messages]
    assert kinds == [SystemMessage, HumanMessage, AIMessage, ToolMessage]
    assert "<goal>" in str(messages[1].content)
    # Nothing earlier to build on: no inputs block.
    assert "<inputs>" not in str(messages[1].content)
    shown = str(messages[3].content)
    assert '<skill_doc name="get_order_details_v1">' in shown and "## Parameters" in shown
    # What is stored stays the short line: the instructions come from the package.
    assert "## Parameters" not in str(steps[1].content)


def test_a_later_call_begins_with_the_whole_earlier_prompt() -> None:
    ctx = context()
    spec = ctx.roles["order_query"]
    first = load("get_order_details_v1", "c1")
    later = [*first, *load("track_shipment_v1", "c2")]
    loaded_first, loaded_later = (
        ["get_order_details_v1"],
        ["get_order_details_v1", "track_shipment_v1"],
    )
    one = prompt_of(ctx, spec, state("a", "x", loaded=loaded_first, messages=first))
    two = prompt_of(ctx, spec, state("a", "x", loaded=loaded_later, messages=later))
    assert two[: len(one)] == one and len(two) == len(one) + 2


def test_an_evicted_or_reloaded_skill_shows_its_instructions_once_or_not_at_all() -> None:
    ctx = context()
    spec = ctx.roles["order_query"]
    steps = [
        *load("get_order_details_v1", "c1"),
        *load("track_shipment_v1", "c2"),
        *load("track_shipment_v1", "c3"),
        *load("no_such_tool", "c4", text="no tool 'no_such_tool' for this role; nothing loaded"),
    ]
    messages = prompt_of(ctx, spec, state("a", "x", loaded=["track_shipment_v1"], messages=steps))
    told = [str(m.content) for m in messages if isinstance(m, ToolMessage)]
    assert told[0] == f"{EVICTED}: get_order_details_v1"
    assert told[1] == f"{EVICTED}: track_shipment_v1"
    assert '<skill_doc name="track_shipment_v1">' in told[2]
    assert told[3].startswith("no tool 'no_such_tool'")


def test_tools_are_the_whitelist_without_session_parameters() -> None:
    ctx = context()
    spec = ctx.roles["order_query"]
    tools = tool_schemas(offered(ctx, Task(id="g1", role=spec.name, goal="look")))
    names = [t["function"]["name"] for t in tools]
    allowed = spec.execute - ctx.domain.planning.unplannable
    assert set(names) == {*allowed, LOAD_SKILL}
    # The customer's id is the session's: not in the signature the model reads.
    prefix = str(prompt_of(ctx, spec, state("ann_lee_1234", "x"))[0].content)
    assert "- get_user_details_v1(): " in prefix and "user_id" not in prefix
    load = tools[-1]["function"]
    assert load["parameters"]["properties"] == {"name": {"type": "string"}}


def test_a_schema_is_a_name_its_arguments_are_in_the_signature_and_the_instructions() -> None:
    ctx = context()
    spec = ctx.roles["order_query"]
    tools = tool_schemas(offered(ctx, Task(id="g1", role=spec.name, goal="look")))
    order = next(t["function"] for t in tools if t["function"]["name"] == "get_order_details_v1")
    # An open object: the signature in the tool list names the arguments, the
    # instructions load_skill brings say what they mean, the executor checks them.
    assert order == {"name": "get_order_details_v1", "parameters": {"type": "object"}}
    loaded = state(
        "a", "x", loaded=["get_order_details_v1"], messages=load("get_order_details_v1", "c1")
    )
    docs = str(prompt_of(ctx, spec, loaded)[3].content)
    assert "`order_id` (string): Order id such as" in docs


def test_a_signature_marks_optional_arguments_and_types_other_than_string() -> None:
    registry, _ = load_static_config()
    session = frozenset({"user_id"})
    assert signature(registry.get("search_knowledge_v1").metadata, session) == (
        "search_knowledge_v1(query, partitions?: string[], limit?: integer)"
    )
    assert signature(registry.get("detect_delay_pattern_v1").metadata, session) == (
        "detect_delay_pattern_v1(tracking_id?, order_id?, as_of?, stall_hours?: number)"
    )
    assert signature(registry.get("get_user_details_v1").metadata, session) == (
        "get_user_details_v1()"
    )


def test_a_goal_building_on_earlier_results_shows_them_as_inputs() -> None:
    ctx = context()
    spec = ctx.roles["order_query"]
    found = {"t1": {"order_id": "#W0000001", "status": "pending"}}
    turn = str(prompt_of(ctx, spec, state("ann_lee_1234", "x", results=found))[1].content)
    assert turn.startswith("<goal>") and "<inputs>" in turn
    assert '"#W0000001"' in turn and '"pending"' in turn
