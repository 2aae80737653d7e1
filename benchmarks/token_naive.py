"""The token benchmark's baseline: a naive agent making the same conversation's calls.

Each of a turn's model calls (less those that only load instructions, which
it does not need) sees the same tools without `load_skill`, each schema with
the skill's full description and every parameter's (as the metadata has
them); a system prompt of the role agent's prefix plus every offered skill's
full instructions; the whole conversation so far (each earlier turn's
customer message, tool calls, tool results and answer); then this turn's
customer message and steps.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from benchmarks.token_count import Prompt
from benchmarks.token_script import Turn
from nodes.agent.disclosure import skill_doc
from nodes.agent.fence import fenced
from nodes.agent.tools import LOAD_SKILL, ToolSchema, skill_tool
from nodes.domain import Domain
from skills.contract import SkillMetadata
from skills.registry import SkillRegistry


def naive_agent(
    ours: Sequence[Prompt],
    steps: Sequence[Sequence[BaseMessage]],
    turns: Sequence[Turn],
    domain: Domain,
    registry: SkillRegistry,
) -> list[Prompt]:
    """The naive agent's calls for the conversation the role agent made as `ours`."""
    first = ours[0]
    offered = [t["function"]["name"] for t in first.tools if t["function"]["name"] != LOAD_SKILL]
    docs = [(name, skill_doc(registry.get(name))) for name in offered]
    session = domain.planning.customer_args
    schemas = tuple(described(registry.get(n).metadata, session) for n in offered)
    system = naive_system(str(first.messages[0].content), docs)
    return naive_prompts(steps, turns, system, schemas)


def naive_prompts(
    steps: Sequence[Sequence[BaseMessage]],
    turns: Sequence[Turn],
    system: str,
    schemas: tuple[ToolSchema, ...],
) -> list[Prompt]:
    """The naive agent's calls: every doc in the system prompt, the whole history each turn."""
    head: list[BaseMessage] = [SystemMessage(content=system)]
    history: list[BaseMessage] = []
    out: list[Prompt] = []
    for turn, loop in zip(turns, steps, strict=True):
        said: list[BaseMessage] = [HumanMessage(content=turn.customer), *without_loads(loop)]
        for i, message in enumerate(said):
            if isinstance(message, AIMessage):
                out.append(Prompt(schemas, (*head, *history, *said[:i])))
        history += said
    return out


def without_loads(steps: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The loop's steps less the turns that only loaded instructions, and their results."""
    loads = {
        c["id"]
        for m in steps
        if isinstance(m, AIMessage) and m.tool_calls
        if all(c["name"] == LOAD_SKILL for c in m.tool_calls)
        for c in m.tool_calls
    }
    return [
        m
        for m in steps
        if not (isinstance(m, AIMessage) and m.tool_calls and m.tool_calls[0]["id"] in loads)
        and not (isinstance(m, ToolMessage) and m.tool_call_id in loads)
    ]


def naive_system(prefix: str, docs: Sequence[tuple[str, str]]) -> str:
    """The prefix, then every offered skill's full instructions."""
    shown = "\n".join(fenced("skill_doc", text, name=name) for name, text in docs)
    return f"{prefix}\n\nFull instructions of every tool:\n{shown}"


def described(metadata: SkillMetadata, session: frozenset[str]) -> ToolSchema:
    """A skill's schema with its full description and every parameter's."""
    schema = skill_tool(metadata, session)
    function = {**schema["function"], "description": " ".join(metadata.description.split())}
    for name, shape in function["parameters"]["properties"].items():
        if text := metadata.parameters[name].description:
            shape["description"] = text
    return {**schema, "function": function}
