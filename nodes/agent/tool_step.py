"""The loop's tool step: run every tool call of the model's last turn.

Each result goes back to the model fenced as data. A call the customer must
confirm ends the loop (the turn asks them); a call an operator must approve
pauses the loop right here (`interrupt()`, through the approval node's
machinery) and, once decided, runs as approved — the model is not asked again
for anything before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, ToolCall, ToolMessage
from langgraph.runtime import Runtime

from nodes.agent.calls import (
    Whose,
    approval_request,
    confirmation_request,
    recorded,
    session_args,
    skill_request,
)
from nodes.agent.disclosure import touched, used
from nodes.agent.fence import fenced, safe_name
from nodes.agent.findings import AgentCall
from nodes.agent.state import AgentState
from nodes.agent.tools import LOAD_SKILL
from nodes.approval import Asking, ask_operators, grant_for
from nodes.context import SupportContext
from nodes.contracts import ConfirmationRequest
from nodes.state import ConfirmationRequestData, stored
from skills.errors import ApprovalRequired, ConfirmationRequired

AgentUpdate = dict[str, object]
NOT_RUN = "not run: an earlier call of this turn ended the loop"


@dataclass(frozen=True)
class Ran:
    """One call's outcome: what the model is told and what the findings keep."""

    text: str
    call: AgentCall
    confirmation: ConfirmationRequest | None = None


async def tool_step(state: AgentState, runtime: Runtime[SupportContext]) -> AgentUpdate:
    """Run the last turn's tool calls in order; None of them runs twice per turn."""
    ctx, whose = runtime.context, Whose.of(state)
    last = state["messages"][-1]
    loaded = list(state.get("loaded", []))
    told: list[ToolMessage] = []
    calls: list[Any] = []
    confirmation: ConfirmationRequest | None = None
    for call in last.tool_calls if isinstance(last, AIMessage) else []:
        if confirmation is not None:
            told.append(_told(call, NOT_RUN))
        elif call["name"] == LOAD_SKILL:
            loaded, text = _load(ctx, whose, loaded, call["args"])
            told.append(_told(call, text))
        else:
            ran = await run_call(ctx, whose, call["name"], call["args"])
            if ran is None:
                return {"again": True}  # the operator's answer was refused: ask anew
            loaded = touched(loaded, call["name"])
            told.append(_told(call, ran.text))
            calls.append(ran.call.model_dump(mode="json"))
            confirmation = ran.confirmation
    update: AgentUpdate = {"messages": told, "calls": calls, "loaded": loaded, "again": False}
    if confirmation is not None:
        update["stop"] = "confirmation"
        update["confirmation"] = stored(confirmation, ConfirmationRequestData)
    return update


async def run_call(ctx: SupportContext, whose: Whose, name: str, raw: object) -> Ran | None:
    """One skill call through the runtime; None when an operator must be asked again."""
    args = session_args(ctx, name, raw, whose.user_id)
    try:
        result = await ctx.skills.call(skill_request(whose, name, args))
    except ConfirmationRequired as signal:
        asked = confirmation_request(whose, name, signal.args, signal.args_hash)
        call = AgentCall(skill=name, args=signal.args, status="not_run", error_code="to_confirm")
        return Ran("waits for the customer's confirmation; the turn asks them", call, asked)
    except ApprovalRequired as signal:
        return await _approved(ctx, whose, name, signal)
    call = recorded(name, args, result)
    return Ran(_result_text(name, call), call)


async def _approved(
    ctx: SupportContext, whose: Whose, name: str, signal: ApprovalRequired
) -> Ran | None:
    request = approval_request(whose, name, signal.args, signal.args_hash, signal.reason)
    asking = Asking(
        thread_id=whose.thread_id,
        user_id=whose.user_id,
        audit_id=whose.audit_id,
        roles={whose.task.id: whose.task.role},
    )
    asked = await ask_operators(ctx, asking, [request])
    if asked.refused is not None:
        return None
    decision = asked.decisions[request.id]
    if decision.decision not in ("approve", "edit"):
        call = AgentCall(skill=name, args=signal.args, status="rejected", error_code="rejected")
        return Ran("rejected by an operator; nothing was changed", call)
    grant = grant_for(request, decision)
    try:
        result = await ctx.skills.call(skill_request(whose, name, grant.args, grant.approval()))
    except (ApprovalRequired, ConfirmationRequired) as exc:
        # The approved call is not the one asked about: it does not run.
        call = AgentCall(skill=name, args=grant.args, status="failed", error_code="not_approved")
        return Ran(f"not run: {type(exc).__name__}", call)
    call = recorded(name, grant.args, result)
    return Ran(_result_text(name, call), call)


def _load(
    ctx: SupportContext, whose: Whose, loaded: list[str], raw: object
) -> tuple[list[str], str]:
    name = raw.get("name") if isinstance(raw, dict) else None
    held = {m.skill_id for m in ctx.skills.bound_skills(ctx.roles[whose.task.role])}
    if not isinstance(name, str) or name not in held:
        return loaded, f"no tool {safe_name(name)!r} for this role; nothing loaded"
    return used(loaded, name), f"loaded the instructions of {name}"


def _result_text(name: str, call: AgentCall) -> str:
    if call.status == "succeeded":
        return fenced("tool_result", call.payload, tool=name)
    return fenced("tool_result", {"error": call.error_code or "failed"}, tool=name)


def _told(call: ToolCall, text: str) -> ToolMessage:
    return ToolMessage(content=text, tool_call_id=call["id"] or "", name=safe_name(call["name"]))
