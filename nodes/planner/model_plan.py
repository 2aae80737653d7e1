"""The planner's model tiers: large -> small -> rules.

The rules templates have already planned the request; a model may reorder
and add reads, never drop one nor widen what runs (see
`nodes.planner.model_checks`), or, when the rules plan changes nothing, hand
the request to one role agent as a goal, run beside the rules plan
(`nodes.planner.goals`).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from nodes.contracts import Plan, Tier, Understanding
from nodes.errors import PromptConfigError
from nodes.models.call import call_site, descend
from nodes.models.prompts import Prompts
from nodes.models.schema import parse_reply
from nodes.models.tiers import ModelSize
from nodes.planner.goals import agent_roles
from nodes.planner.model_checks import NODE, PlanReply, check_model_plan, masked_args
from nodes.state import SupportState
from skills.registry import describe

if TYPE_CHECKING:
    from nodes.context import SupportContext

# The tier the planner declares: composing a DAG benefits from the larger model.
PLANNER_TIER: ModelSize = "large"
_MARKER = re.compile(r"</?\s*request\s*>", re.IGNORECASE)


async def model_plan(
    ctx: SupportContext, state: SupportState, understanding: Understanding, rules: Plan
) -> tuple[Plan, Tier]:
    """The first plan a model tier makes that passes every check, else `rules`."""
    tiers = ctx.models
    # Nothing for the rules to run (a handoff, an out-of-scope request) is
    # not something a model should find work in, not even a role agent.
    if tiers is None or not tiers.available or not rules.tasks:
        return rules, "rules"
    agents = agent_roles(ctx.roles, tiers)
    user_id = state["user_id"]

    def accept(reply: str, tier: ModelSize) -> tuple[Plan, Tier]:
        checked = check_model_plan(
            parse_reply(NODE, reply, PlanReply),
            rules=rules,
            understanding=understanding,
            domain=ctx.domain,
            roles=ctx.roles,
            registry=ctx.registry,
            user_id=user_id,
            tier=tier,
            agents=agents,
        )
        return checked, tier

    messages = planner_messages(tiers.prompts, ctx, understanding, rules, user_id, agents)
    site = call_site(NODE, dict(state))
    found = await descend(tiers, ctx.pool, site, PLANNER_TIER, messages, accept)
    return found if found is not None else (rules, "rules")


def planner_messages(
    prompts: Prompts,
    ctx: SupportContext,
    understanding: Understanding,
    rules: Plan,
    user_id: str,
    agents: frozenset[str] = frozenset(),
) -> list[BaseMessage]:
    """System instructions with roles and skills, then the request fenced as data.

    Roles in `agents` are marked as taking goals (`nodes.planner.goals`)."""
    roles = "\n".join(
        f"- {name}: {', '.join(sorted(spec.execute - spec.deny))}"
        + (" [takes goals]" if name in agents else "")
        for name, spec in sorted(ctx.roles.items())
    )
    skills = describe(s.metadata for s in ctx.registry)
    request = prompts.render(
        "planner_request",
        intents=_data(list(understanding.intents)),
        slots=_data(masked_args(understanding.slots)),
        user_id=_data(user_id),
        draft=_data([_shown(t.model_dump(mode="json")) for t in rules.tasks]),
    )
    system = (
        domain_brief(ctx.domain.prompts)
        + "\n\n"
        + prompts.render("planner", roles=roles, skills=skills)
    )
    return [
        SystemMessage(content=system),
        HumanMessage(content=request),
    ]


@cache
def domain_brief(prompts: Path) -> str:
    """The domain's `planner.md`: what desk the planner plans for, its records and ids.

    Read once per process; the generic rules follow it in the system prompt.
    """
    path = prompts / "planner.md"
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise PromptConfigError(
            f"domain prompt {path} cannot be read ({exc.strerror}); add it to the domain pack"
        ) from exc


def _shown(task: dict[str, Any]) -> dict[str, Any]:
    # Models see no full e-mail, card or phone number, and not our own fields.
    keep = ("id", "role", "skill", "depends_on")
    shown = {**{k: task[k] for k in keep}, "args": masked_args(task["args"])}
    return {**shown, "when": task["when"]} if task.get("when") else shown


def _data(value: Any) -> str:
    # A customer cannot close the data fence by typing the marker into a slot.
    return _MARKER.sub(" ", json.dumps(value, ensure_ascii=False))
