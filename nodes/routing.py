"""Decisions the support graph's routers ask: what comes next after a step.

The graph file maps these answers onto edges; the reasoning lives here.
"""

from __future__ import annotations

from typing import Literal

from nodes.arbitrate import proposals_by_question
from nodes.refine import refinable
from nodes.state import SupportState

NextAfterDispatch = Literal["approval", "refine", "arbitrate", "compose"]


def after_intake(state: SupportState) -> Literal["compose", "handoff", "planner"]:
    if state.get("refusal"):
        return "compose"
    if "human_handoff" in (state.get("understanding") or {}).get("intents", []):
        return "handoff"
    return "planner"


def after_planner(state: SupportState) -> Literal["compose", "dispatch"]:
    return "compose" if state.get("refusal") else "dispatch"


def when_nothing_ready(state: SupportState, max_rounds: int) -> NextAfterDispatch:
    if state.get("pending"):
        return "approval"
    if refinable(state) and int(state.get("rounds") or 0) <= max_rounds:
        return "refine"
    if not state.get("decisions") and any(
        len(p) > 1 for p in proposals_by_question(state).values()
    ):
        return "arbitrate"
    return "compose"


def after_review(
    state: SupportState, max_revisions: int
) -> Literal["respond", "compose", "escalate"]:
    if (state.get("review") or {}).get("approved") or state.get("human_reply"):
        return "respond"
    if int(state.get("revisions") or 0) <= max_revisions:
        return "compose"
    return "escalate"
