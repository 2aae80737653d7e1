"""The loop's model step: one call down the role's ladder with its tools bound."""

from __future__ import annotations

import time
from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage
from langgraph.runtime import Runtime

from nodes.agent.bounds import AgentBounds, call_key, repeated, spent
from nodes.agent.calls import offered
from nodes.agent.disclosure import loaded_doc
from nodes.agent.prompt import agent_messages, shown_loads, stable_prefix, turn_text
from nodes.agent.state import AgentState
from nodes.agent.tools import ToolSchema, tool_schemas
from nodes.context import SupportContext
from nodes.contracts import Task
from nodes.models.call import Descent, ask_tier, call_site
from nodes.models.prompts import domain_prompt
from nodes.models.tiers import ModelSize
from nodes.models.usage import usage_of
from skills.roles import RoleSpec

AgentUpdate = dict[str, object]
AGENT_PROMPT = "agent"
"""The domain's `prompts/agent.md`: the desk and its records, as an agent is told them."""


async def model_step(state: AgentState, runtime: Runtime[SupportContext]) -> AgentUpdate:
    """Ask the model for the next step, unless a bound is reached first."""
    ctx = runtime.context
    bounds: AgentBounds = ctx.agent_bounds
    steps, tokens = state.get("steps", 0), state.get("tokens", 0)
    seconds = state.get("seconds", 0.0)
    if (stop := spent(steps, tokens, seconds, bounds)) is not None:
        return {"stop": stop}
    task = Task.model_validate(state["task"])
    spec = ctx.roles[task.role]
    tools = tool_schemas(offered(ctx, task))
    started = time.monotonic()
    found = await _ask(ctx, spec, prompt_of(ctx, spec, state), tools, state.get("audit_id"))
    elapsed, reply = time.monotonic() - started, found.value
    if reply is None:
        stop = "no_model" if found.over_budget is None else "budget"
        return {"stop": stop, "seconds": seconds + elapsed, "over_budget": found.over_budget}
    usage = usage_of(reply)
    update: AgentUpdate = {
        "messages": [reply],
        "steps": steps + 1,
        "tokens": tokens + (usage.input_tokens + usage.output_tokens if usage else 0),
        "seconds": seconds + elapsed,
    }
    calls = reply.tool_calls if isinstance(reply, AIMessage) else []
    if not calls:
        return {**update, "stop": "done", "answer": reply.text}
    keys = [*state.get("keys", []), *(call_key(c["name"], c["args"]) for c in calls)]
    update["keys"] = keys
    if repeated(keys, bounds.repeats):
        update["stop"] = "repeated"
    return update


def prompt_of(ctx: SupportContext, spec: RoleSpec, state: AgentState) -> list[BaseMessage]:
    """The messages of the next model call (`nodes.agent.prompt` fixes their order)."""
    task = Task.model_validate(state["task"])
    skills = offered(ctx, task)
    session = ctx.domain.planning.customer_args
    prefix = stable_prefix(spec, skills, domain_prompt(ctx.domain.prompts, AGENT_PROMPT), session)
    docs = {name: loaded_doc(ctx.registry.get(name), session) for name in state.get("loaded", [])}
    turn = turn_text(task.goal or "", state.get("results") or {})
    return agent_messages(prefix, "", turn, shown_loads(state.get("messages", []), docs))


async def _ask(
    ctx: SupportContext,
    spec: RoleSpec,
    messages: Sequence[BaseMessage],
    tools: list[ToolSchema],
    audit_id: str | None,
) -> Descent[BaseMessage]:
    """The first reply down the ladder from the role's tier; no value when every tier
    failed, with the budget that kept the last one skipped from being asked, if any."""
    tiers = ctx.models
    start = _size(spec)
    if tiers is None or start is None:
        return Descent(None)
    # The request's audit id and the role: the request and agent budgets count them.
    site = call_site(f"role_{spec.name}", {"audit_id": audit_id}, role=spec.name)
    over = None
    for tier, model in tiers.ladder(start):
        bound = model.bind_tools(tools)
        found = await ask_tier(tiers, ctx.pool, site, tier, model, bound, messages, tools)
        if found.value is not None:
            return found
        over = found.over_budget or over
    return Descent(None, over)


def _size(spec: RoleSpec) -> ModelSize | None:
    tier = spec.model_tier
    return None if tier == "rules" else tier
