"""How the token benchmark counts: the reused prefix, the naive agent's prompts, the
benchmark role."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from benchmarks.bench_tokens import desk_role
from benchmarks.token_count import Prompt, reused, tokens, units
from benchmarks.token_naive import naive_prompts, without_loads
from benchmarks.token_script import Subjects, Turn, conversation, load, reply
from nodes.agent.tools import LOAD_SKILL
from nodes.bootstrap import load_static_config
from nodes.domain import load_domain

TOOLS = ({"type": "function", "function": {"name": "x", "parameters": {"type": "object"}}},)


def test_a_call_reuses_only_the_units_identical_from_the_start() -> None:
    system, turn = SystemMessage("policy " * 50), HumanMessage("goal one")
    one = Prompt(TOOLS, (system, turn))
    two = Prompt(TOOLS, (system, turn, AIMessage("step")))
    other = Prompt(TOOLS, (system, HumanMessage("goal two"), AIMessage("step")))
    changed = Prompt((), (system, turn))
    assert reused([one]) == 0
    assert reused([one, two]) == tokens(one)
    # A new turn reuses the tools and the system prompt, not what follows its own turn.
    assert reused([two, other]) == sum(n for _, n in units(other)[:2])
    # Other tools first: nothing after them is a reusable prefix.
    assert reused([one, changed]) == 0


def test_the_naive_agent_sees_the_whole_history_and_no_loads() -> None:
    load_call, call = reply(load("a_v1")), reply((("a_v1", {}),))
    steps = [
        load_call,
        ToolMessage("loaded", tool_call_id=load_call.tool_calls[0]["id"]),
        call,
        ToolMessage("result", tool_call_id=call.tool_calls[0]["id"]),
        AIMessage("answer"),
    ]
    assert without_loads(steps) == steps[2:]
    turns = [Turn("first?", "g", ()), Turn("second?", "g", ())]
    naive = naive_prompts([steps, [AIMessage("again")]], turns, "everything", TOOLS)
    # Two calls on the first turn (the load is not one); the second sees all of the first.
    assert [len(p.messages) for p in naive] == [2, 4, 1 + 4 + 1]
    last = naive[-1].messages
    assert last[0] == SystemMessage("everything") and last[-1] == HumanMessage("second?")
    assert all(LOAD_SKILL not in str(m) for m in last)


def test_the_benchmark_role_holds_every_skill_of_the_catalog() -> None:
    registry, roles = load_static_config(load_domain("retail"))
    desk = desk_role(roles.values())
    assert desk.execute == {s.metadata.skill_id for s in registry}
    assert not desk.deny and len(desk.execute) >= 20


def test_the_conversation_has_twenty_turns() -> None:
    subjects = Subjects("u", ("#W1", "#W2", "#W3"), "1", "2")
    turns = conversation(subjects)
    assert len(turns) == 20 and all(isinstance(t.steps[-1], str) for t in turns)
