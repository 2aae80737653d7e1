"""Decisions the support graph's routers ask: what comes next after a step.

The graph file maps these answers onto edges; the reasoning lives here.
"""

from __future__ import annotations

from typing import Literal

from nodes.arbitrate import contested
from nodes.refine import MAX_ROUNDS, refinable
from nodes.review import MAX_REVISIONS
from nodes.state import SupportState

NextAfterDispatch = Literal["approval", "refine", "arbitrate", "compose"]


def after_intake(state: SupportState) -> Literal["compose", "handoff", "planner"]:
    # A refusal, a question back to the customer, or an answer that settled the last
    # question (a "no") is answered at once: nothing to plan.
    if state.get("refusal") or state.get("asking") or not state.get("understanding"):
        return "compose"
    if state.get("handoff"):
        return "handoff"
    return "planner"


def after_planner(state: SupportState) -> Literal["compose", "dispatch"]:
    return "compose" if state.get("refusal") else "dispatch"


def after_refine(state: SupportState) -> Literal["planner", "dispatch"]:
    return "planner" if state.get("replan") else "dispatch"


def when_nothing_ready(state: SupportState) -> NextAfterDispatch:
    if state.get("pending"):
        return "approval"
    if refinable(state) and int(state.get("rounds") or 0) <= MAX_ROUNDS:
        return "refine"
    if not state.get("decisions") and contested(state):
        return "arbitrate"
    return "compose"


def after_review(state: SupportState) -> Literal["respond", "compose", "escalate"]:
    revisions = int(state.get("revisions") or 0)
    review = state.get("review")
    if review and review["approved"]:
        return "respond"
    if revisions <= MAX_REVISIONS:
        return "compose"
    # The reviewer gave up; once a human has answered that escalation, their
    # reply stands in for the review.
    return "respond" if state.get("human_reply") else "escalate"
