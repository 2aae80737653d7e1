"""The tools a role agent is offered: its role's whitelisted skills and `load_skill`.

The parameters holding the customer's id (`DomainPlanning.customer_args`) are
never offered: the session's customer fills them (`nodes.agent.calls`), so a
model cannot name another customer. Skills the domain keeps from model
planners (`DomainPlanning.unplannable`, identity lookups) are kept from agents
too.

A skill is bound as its name over an open object. Its arguments are disclosed
in the prompt's tool list as a signature (`signature`: the names, `?` after an
optional one, a type other than string), what they mean in the instructions
`load_skill` brings, and the skill's executor checks them: a wrong argument
fails the call with `validation_error`, which the model is told. Schemas are
paid for on every call: for the token benchmark's 21 skills, typed ones cost
1,655 tokens, names over open objects 579 and the signatures about 180 more
in the tool list (README, "Benchmarks"). The price is that an endpoint which
constrains its output to the schema no longer constrains argument types.
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


def tool_schemas(skills: Sequence[SkillMetadata]) -> list[ToolSchema]:
    """One tool per skill, then `load_skill`."""
    return [*(skill_tool(m) for m in skills), load_skill_tool()]


def skill_tool(metadata: SkillMetadata) -> ToolSchema:
    """A skill's function-calling schema: its name over an open object (its arguments
    are in its `signature`)."""
    return _function(metadata.skill_id, {"type": "object"})


def load_skill_tool() -> ToolSchema:
    """`load_skill(name)`: bring one tool's full instructions into context. A name the
    role does not hold loads nothing and says so (`nodes.agent.tool_step`)."""
    name = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    return _function(LOAD_SKILL, name)


def _function(name: str, parameters: dict[str, Any]) -> ToolSchema:
    return {"type": "function", "function": {"name": name, "parameters": parameters}}


def signature(metadata: SkillMetadata, session: frozenset[str]) -> str:
    """`skill_id(arg, optional?, count?: integer)`: the arguments the model passes (not
    the session's), `?` after an optional one, and any type other than string."""
    shown = []
    for name, spec in metadata.parameters.items():
        if name in session:
            continue
        kind = _type_name(json_type(spec))
        shown.append(
            f"{name}{'' if spec.required else '?'}{'' if kind == 'string' else ': ' + kind}"
        )
    return f"{metadata.skill_id}({', '.join(shown)})"


def _type_name(schema: dict[str, Any]) -> str:
    if schema["type"] == "array":
        return f"{schema['items']['type']}[]"
    return str(schema["type"])


def json_type(spec: ParameterSpec) -> dict[str, Any]:
    """A parameter's JSON-schema type (no description)."""
    found = _ARRAY.match(spec.type)
    if found:
        return {"type": "array", "items": {"type": _scalar(found.group(1))}}
    return {"type": _scalar(spec.type)}


def _scalar(name: str) -> str:
    return name if name in _SCALARS else "string"
