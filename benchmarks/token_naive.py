"""The token benchmark's baseline: a naive agent making the same conversation's calls.

Each of a turn's model calls (less those that only load instructions, which
it does not need) sees the same tools without `load_skill`, each a typed
schema with the skill's full description and every parameter's (as the
metadata has them); a system prompt of the role agent's prefix (its tool list
names and one-line descriptions only, as the typed schemas carry the
arguments) plus every offered skill's full instructions; the whole
conversation so far (each earlier turn's customer message, tool calls, tool
results and answer); then this turn's customer message and steps.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from benchmarks.token_count import Prompt
from benchmarks.token_script import Turn
from nodes.agent.disclosure import skill_doc
from nodes.agent.fence import fenced
from nodes.agent.prompt import tool_list
from nodes.agent.tools import LOAD_SKILL, ToolSchema, json_type, one_line
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
    skills = [registry.get(n).metadata for n in offered]
    schemas = tuple(described(m, session) for m in skills)
    ours_listed = tool_list(skills, session)
    prefix = str(first.messages[0].content).replace(ours_listed, plain_list(skills))
    return naive_prompts(steps, turns, naive_system(prefix, docs), schemas)


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


def plain_list(skills: Sequence[SkillMetadata]) -> str:
    """The tool list without signatures: the naive agent's typed schemas hold the arguments."""
    lines = [f"- {m.skill_id}: {one_line(m.description)}" for m in skills]
    return "\n".join(["Tools:", *lines, f"- {LOAD_SKILL}: read one tool's full instructions."])


def described(metadata: SkillMetadata, session: frozenset[str]) -> ToolSchema:
    """A skill's typed schema with its full description and every parameter's, less the
    session's parameters."""
    params = {n: p for n, p in metadata.parameters.items() if n not in session}
    properties = {
        n: {**json_type(p), **({"description": p.description} if p.description else {})}
        for n, p in params.items()
    }
    required = [n for n, p in params.items() if p.required]
    parameters = {
        "type": "object",
        "properties": properties,
        **({"required": required} if required else {}),
        "additionalProperties": False,
    }
    function = {
        "name": metadata.skill_id,
        "description": " ".join(metadata.description.split()),
        "parameters": parameters,
    }
    return {"type": "function", "function": function}
