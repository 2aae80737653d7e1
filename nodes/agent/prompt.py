"""A role agent's prompt, assembled in a fixed order so its prefix stays byte-identical.

1. the stable system prefix: role, policy, the tool list (each tool's signature
   and one-line description only) — the same for every request and customer of
   the role;
2. memory and summary (what the task's earlier steps found);
3. the turn: the goal and its inputs, fenced as data;
4. the loop's own steps.

A loaded skill's instructions (`nodes.agent.disclosure`) are shown as the
result of the `load_skill` call that brought them, where the model asked for
them: the prompt only grows at its end, so each call's prompt begins with the
whole previous one, which a provider's prefix cache reuses. The stored step
keeps only a short line; the instructions are rendered from the package on
each call. A skill evicted from the loaded set shows that it was evicted
instead, which changes the prompt from that step on, once per eviction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from types import MappingProxyType

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from nodes.agent.disclosure import loaded_line
from nodes.agent.fence import fenced
from nodes.agent.tools import LOAD_SKILL, one_line, signature
from nodes.models.prompts import Prompts
from skills.contract import SkillMetadata
from skills.roles import RoleSpec

TEMPLATE = Path(__file__).with_name("agent.md")
TOOLS_HEADING = "Tools (an argument marked ? is optional; one without a type is a string):"


@cache
def _prompts() -> Prompts:
    return Prompts(templates=MappingProxyType({"agent": TEMPLATE.read_text(encoding="utf-8")}))


def stable_prefix(
    spec: RoleSpec, skills: Sequence[SkillMetadata], domain_brief: str, session: frozenset[str]
) -> str:
    """The role's system prefix: nothing in it depends on the request or the customer.

    `domain_brief` is the domain's `prompts/agent.md` (the desk and its records);
    `session` names the parameters the session fills (left out of the signatures)."""
    return _prompts().render(
        "agent",
        role=spec.name,
        description=spec.description,
        domain=domain_brief,
        tools=tool_list(skills, session),
    )


def tool_list(skills: Sequence[SkillMetadata], session: frozenset[str]) -> str:
    """The prefix's tool list: each tool's signature (its schema is an open object,
    `nodes.agent.tools`) and one-line description."""
    lines = [
        f"- {signature(m, session)}: {one_line(m.description)}" for m in sorted(skills, key=_id)
    ]
    lines.append(f"- {LOAD_SKILL}(name): read one tool's full instructions.")
    return "\n".join([TOOLS_HEADING, *lines])


def prefix_hash(prefix: str) -> str:
    """The prefix's SHA-256: what tests and caches compare."""
    return hashlib.sha256(prefix.encode("utf-8")).hexdigest()


def turn_text(goal: str, results: Mapping[str, object]) -> str:
    """The turn: the planner's goal and the earlier tasks' results it builds on, both
    fenced as data. A goal with no such results has no inputs block: nothing to show."""
    shown = fenced("goal", goal, limit=600)
    return f"{shown}\n{fenced('inputs', {'results': results})}" if results else shown


def agent_messages(
    prefix: str, memory: str, turn: str, steps: Sequence[BaseMessage]
) -> list[BaseMessage]:
    """The messages of one model call, in the fixed order of this module's docstring."""
    head: list[BaseMessage] = [SystemMessage(content=prefix)]
    if memory:
        head.append(HumanMessage(content=f"Known so far:\n{memory}"))
    head.append(HumanMessage(content=turn))
    return [*head, *steps]


def shown_loads(steps: Sequence[BaseMessage], docs: Mapping[str, str]) -> list[BaseMessage]:
    """`steps` with each `load_skill` result showing the instructions it brought.

    `docs` holds the instructions of the skills loaded now; only the latest load of
    each shows them, and a load whose skill has since been evicted says so."""
    loads = {
        call["id"]: call["args"].get("name")
        for m in steps
        if isinstance(m, AIMessage)
        for call in m.tool_calls
        if call["name"] == LOAD_SKILL and isinstance(call["args"], dict)
    }
    names = [_loaded_by(m, loads) for m in steps]
    latest = {name: i for i, name in enumerate(names) if name}
    shown: list[BaseMessage] = []
    for i, (m, name) in enumerate(zip(steps, names, strict=True)):
        if name is None:
            shown.append(m)
        elif name in docs and latest[name] == i:
            shown.append(
                m.model_copy(update={"content": fenced("skill_doc", docs[name], name=name)})
            )
        else:
            shown.append(m.model_copy(update={"content": f"{EVICTED}: {name}"}))
    return shown


EVICTED = "instructions no longer shown (load again to read them)"


def _loaded_by(message: BaseMessage, loads: Mapping[str | None, object]) -> str | None:
    """The skill a successful `load_skill` result brought, if `message` is one."""
    if not isinstance(message, ToolMessage) or message.tool_call_id not in loads:
        return None
    name = loads[message.tool_call_id]
    if not isinstance(name, str) or message.content != loaded_line(name):
        return None  # a refused load: its result stays as told
    return name


def _id(metadata: SkillMetadata) -> str:
    return metadata.skill_id
