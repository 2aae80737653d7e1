"""The loop's tool step: run the tool calls of the model's last turn, in order.

Each result goes back to the model fenced as data, as much of it as the model
needs (`nodes.agent.shown`; the findings keep all of it). A call the customer must
confirm ends the loop (the turn asks them); a call an operator must approve
pauses it (`nodes.agent.pause`): the approval node asks, and the approved
task resumes here, at that call, with the operator's grant.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, ToolCall, ToolMessage
from langgraph.runtime import Runtime

from nodes.agent.calls import (
    Whose,
    approval_request,
    confirmation_request,
    offered,
    recorded,
    session_args,
    skill_request,
)
from nodes.agent.disclosure import loaded_line, touched, used
from nodes.agent.fence import fenced, safe_name
from nodes.agent.findings import AgentCall
from nodes.agent.shown import shown
from nodes.agent.state import AgentState
from nodes.agent.tools import LOAD_SKILL
from nodes.context import SupportContext
from nodes.contracts import ApprovalRequest, ConfirmationRequest, Grant
from nodes.state import ApprovalRequestData, ConfirmationRequestData, stored
from skills.contract import Approval
from skills.errors import ApprovalRequired, ConfirmationRequired

log = logging.getLogger(__name__)
AgentUpdate = dict[str, object]
NOT_RUN = "not run: an earlier call of this turn ended the loop"


@dataclass(frozen=True)
class Ran:
    """One call's outcome: what the model is told, what the findings keep, and what
    the call waits for, if anything."""

    text: str
    call: AgentCall | None
    confirmation: ConfirmationRequest | None = None
    waiting: ApprovalRequest | None = None


async def tool_step(state: AgentState, runtime: Runtime[SupportContext]) -> AgentUpdate:
    """Run the last turn's tool calls from the first not yet run (the approved one, on resume)."""
    ctx, whose = runtime.context, Whose.of(state)
    last = state["messages"][-1]
    pending = last.tool_calls if isinstance(last, AIMessage) else []
    grant = Grant.model_validate(state["grant"]) if state.get("grant") else None
    first = int(state.get("at") or 0) if grant else 0
    update: AgentUpdate = {"grant": None, "at": None, "waiting": None}
    loaded = list(state.get("loaded", []))
    told: list[ToolMessage] = []
    calls: list[Any] = []
    for index, call in enumerate(pending[first:], start=first):
        if call["name"] == LOAD_SKILL:
            loaded, text = _load(ctx, whose, loaded, call["args"])
            told.append(_told(call, text))
            continue
        approved = grant if grant and index == first else None
        ran = await run_call(ctx, whose, call["name"], call["args"], approved)
        if ran.waiting is not None:
            update |= {"stop": "approval", "at": index}
            update["waiting"] = stored(ran.waiting, ApprovalRequestData)
            break
        loaded = touched(loaded, call["name"])
        told.append(_told(call, ran.text))
        calls.append(ran.call.model_dump(mode="json") if ran.call else None)
        if ran.confirmation is not None:
            update["stop"] = "confirmation"
            update["confirmation"] = stored(ran.confirmation, ConfirmationRequestData)
            told += [_told(c, NOT_RUN) for c in pending[index + 1 :]]
            break
    return {**update, "messages": told, "calls": [c for c in calls if c], "loaded": loaded}


async def run_call(
    ctx: SupportContext, whose: Whose, name: str, raw: object, grant: Grant | None = None
) -> Ran:
    """One skill call through the runtime, under the operator's grant when it has one."""
    args = grant.args if grant else session_args(ctx, name, raw, whose.user_id)
    if _write_of_a_reading_goal(ctx, whose, name):
        # A goal handed out beside a plan only reads: a write named anyway is not run.
        # (A skill the role does not hold goes to the runtime, which refuses and audits.)
        log.warning("role_%s: %s refused: this goal only reads", whose.task.role, safe_name(name))
        call = AgentCall(skill=name, args=args, status="rejected", error_code="reads_only")
        return Ran(fenced("tool_result", {"error": "this goal only reads"}), call)
    approval: Approval | None = grant.approval() if grant else None
    try:
        result = await ctx.skills.call(skill_request(whose, name, args, approval))
    except ConfirmationRequired as signal:
        asked = confirmation_request(whose, name, signal.args, signal.args_hash)
        call = AgentCall(skill=name, args=signal.args, status="not_run", error_code="to_confirm")
        return Ran("waits for the customer's confirmation; the turn asks them", call, asked)
    except ApprovalRequired as signal:
        if grant is not None:
            # The approved call is not the one asked about: it does not run.
            call = AgentCall(skill=name, args=args, status="failed", error_code="not_approved")
            return Ran(fenced("tool_result", {"error": "not_approved"}), call)
        request = approval_request(whose, name, signal.args, signal.args_hash, signal.reason)
        return Ran("", None, waiting=request)
    call = recorded(name, args, result)
    return Ran(_result_text(ctx, whose, call), call)


def _write_of_a_reading_goal(ctx: SupportContext, whose: Whose, name: str) -> bool:
    task = whose.task
    held = name in ctx.roles[task.role].execute
    return not task.changes and held and ctx.registry.is_side_effect(name)


def _load(
    ctx: SupportContext, whose: Whose, loaded: list[str], raw: object
) -> tuple[list[str], str]:
    name = raw.get("name") if isinstance(raw, dict) else None
    held = {m.skill_id for m in offered(ctx, whose.task)}
    if not isinstance(name, str) or name not in held:
        return loaded, f"no tool {safe_name(name)!r} for this role; nothing loaded"
    return used(loaded, name), loaded_line(name)


def _result_text(ctx: SupportContext, whose: Whose, call: AgentCall) -> str:
    if call.status != "succeeded":
        return fenced("tool_result", {"error": call.error_code or "failed"})
    found = ctx.registry.lookup(call.skill)
    omits = found.metadata.model_omits if found is not None else ()
    session = dict.fromkeys(ctx.domain.planning.customer_args, whose.user_id)
    return fenced("tool_result", shown(call.payload, call.args, session, omits))


def _told(call: ToolCall, text: str) -> ToolMessage:
    return ToolMessage(content=text, tool_call_id=call["id"] or "", name=safe_name(call["name"]))
