"""A role agent's prompt, assembled in a fixed order so its prefix stays byte-identical.

1. the stable system prefix: role, policy, the tool list (names and one-line
   descriptions only) — the same for every request and customer of the role;
2. memory and summary (what the task's earlier steps found);
3. the turn: the goal and its inputs, fenced as data;
4. the instructions of the skills the model loaded (`nodes.agent.disclosure`);
5. the loop's own steps.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import MappingProxyType

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from nodes.agent.fence import fenced
from nodes.agent.tools import LOAD_SKILL, one_line
from nodes.models.prompts import Prompts
from skills.contract import SkillMetadata
from skills.roles import RoleSpec

TEMPLATE = Path(__file__).with_name("agent.md")


@cache
def _prompts() -> Prompts:
    return Prompts(templates=MappingProxyType({"agent": TEMPLATE.read_text(encoding="utf-8")}))


def stable_prefix(spec: RoleSpec, skills: Sequence[SkillMetadata], domain_brief: str) -> str:
    """The role's system prefix: nothing in it depends on the request or the customer.

    `domain_brief` is the domain's `prompts/agent.md` (the desk and its records)."""
    lines = [f"- {m.skill_id}: {one_line(m.description)}" for m in sorted(skills, key=_id)]
    lines.append(f"- {LOAD_SKILL}: read one tool's full instructions.")
    return _prompts().render(
        "agent",
        role=spec.name,
        description=spec.description,
        domain=domain_brief,
        tools="\n".join(lines),
    )


def prefix_hash(prefix: str) -> str:
    """The prefix's SHA-256: what tests and caches compare."""
    return hashlib.sha256(prefix.encode("utf-8")).hexdigest()


def turn_text(goal: str, inputs: object) -> str:
    """The turn: the planner's goal and the task's inputs, both fenced as data."""
    return f"{fenced('goal', goal, limit=600)}\n{fenced('inputs', inputs)}"


def agent_messages(
    prefix: str,
    memory: str,
    turn: str,
    docs: Sequence[tuple[str, str]],
    steps: Sequence[BaseMessage],
) -> list[BaseMessage]:
    """The messages of one model call, in the fixed order of this module's docstring."""
    head: list[BaseMessage] = [SystemMessage(content=prefix)]
    if memory:
        head.append(HumanMessage(content=f"Known so far:\n{memory}"))
    head.append(HumanMessage(content=turn))
    if docs:
        shown = "\n".join(fenced("skill_doc", text, name=name) for name, text in docs)
        head.append(HumanMessage(content=f"Instructions of the tools you loaded:\n{shown}"))
    return [*head, *steps]


def _id(metadata: SkillMetadata) -> str:
    return metadata.skill_id
