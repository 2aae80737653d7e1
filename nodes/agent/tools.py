"""The tools a role agent is offered: its role's whitelisted skills and `load_skill`.

Schemas come from the skill metadata. The parameters holding the customer's
id (`DomainPlanning.customer_args`) are never offered: the session's customer
fills them (`nodes.agent.calls`), so a model cannot name another customer.
Skills the domain keeps from model planners (`DomainPlanning.unplannable`,
identity lookups) are kept from agents too.

A skill's schema holds its name and typed parameters only: its one-line
description is in the prompt's tool list (`nodes.agent.prompt`), and what each
parameter means is in the instructions `load_skill` brings. Repeating either
in every call's schemas would cost their tokens on every call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from skills.contract import ParameterSpec, SkillMetadata

LOAD_SKILL = "load_skill"
ToolSchema = dict[str, Any]
"""An OpenAI function-calling tool (what `bind_tools` accepts)."""
_ARRAY = re.compile(r"^array\[(\w+)\]$")
_SCALARS = frozenset({"string", "integer", "number", "boolean", "object"})


def one_line(description: str) -> str:
    """A description's first sentence, at most 160 characters: what the prompt lists."""
    first = re.split(r"(?<=[.;])\s", " ".join(description.split()), maxsplit=1)[0]
    return first if len(first) <= 160 else first[:159] + "…"


def agent_skills(
    bound: Sequence[SkillMetadata], unplannable: frozenset[str]
) -> list[SkillMetadata]:
    """The skills a role agent is given: the role's bound skills the domain does not keep
    from models, sorted by id."""
    return sorted((m for m in bound if m.skill_id not in unplannable), key=lambda m: m.skill_id)


def tool_schemas(skills: Sequence[SkillMetadata], session: frozenset[str]) -> list[ToolSchema]:
    """One tool per skill, then `load_skill` over exactly those skills; parameters in
    `session` are the session's to fill and are not offered."""
    tools = [skill_tool(m, session) for m in skills]
    return [*tools, load_skill_tool([m.skill_id for m in skills])]


def skill_tool(metadata: SkillMetadata, session: frozenset[str] = frozenset()) -> ToolSchema:
    """The function-calling schema of one skill: its name and typed parameters, without
    its session parameters (see the module docstring for what is left out)."""
    params = {n: p for n, p in metadata.parameters.items() if n not in session}
    return _function(
        metadata.skill_id,
        None,
        {n: json_type(p) for n, p in params.items()},
        [n for n, p in params.items() if p.required],
    )


def load_skill_tool(names: Sequence[str]) -> ToolSchema:
    """`load_skill(name)`: bring one tool's full instructions into context."""
    name = {"type": "string", "enum": list(names), "description": "The tool to read about."}
    return _function(
        LOAD_SKILL, "Read one tool's full instructions before using it.", {"name": name}, ["name"]
    )


def _function(
    name: str, description: str | None, properties: dict[str, Any], required: list[str]
) -> ToolSchema:
    # An empty `required` says nothing a schema without it does not.
    needed = {"required": required} if required else {}
    parameters = {
        "type": "object",
        "properties": properties,
        **needed,
        "additionalProperties": False,
    }
    described = {"description": description} if description else {}
    return {"type": "function", "function": {"name": name, **described, "parameters": parameters}}


def json_type(spec: ParameterSpec) -> dict[str, Any]:
    """A parameter's JSON-schema type (no description)."""
    found = _ARRAY.match(spec.type)
    if found:
        return {"type": "array", "items": {"type": _scalar(found.group(1))}}
    return {"type": _scalar(spec.type)}


def _scalar(name: str) -> str:
    return name if name in _SCALARS else "string"
