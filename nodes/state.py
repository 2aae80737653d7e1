"""Graph state of the support graph (the contract between its nodes).

Values are plain JSON-shaped data (the `nodes.contracts` models dumped with
`model_dump(mode="json")`), so any checkpointer — ours, or the one
`langgraph dev` brings — stores and restores them without custom types.
Nodes validate them back into contracts at their boundary.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

# pydantic (which builds the JSON schemas Studio shows) needs this TypedDict on Python < 3.12.
from typing_extensions import TypedDict

from nodes.contracts import Plan


def merge(left: dict[str, Any] | None, right: dict[str, Any] | None) -> dict[str, Any]:
    """Later writes win per key; a None value removes the key."""
    out = dict(left or {})
    for key, value in (right or {}).items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


class SupportInput(TypedDict, total=False):
    text: str
    user_id: str


class SupportState(TypedDict, total=False):
    text: str
    user_id: str
    audit_id: str
    understanding: dict[str, Any]  # Understanding
    refusal: str | None
    handoff: bool  # intake read an intent the domain hands to a human
    plan: dict[str, Any]  # Plan
    outcomes: Annotated[dict[str, Any], merge]  # task id -> TaskOutcome
    grants: Annotated[dict[str, Any], merge]  # task id -> approved call (args, approval id)
    pending: Annotated[dict[str, Any], merge]  # request id -> ApprovalRequest
    decided: Annotated[dict[str, Any], merge]  # request id -> HumanDecision
    decisions: Annotated[list[dict[str, Any]], operator.add]  # Decision
    rounds: int
    replan: list[str] | None  # failed task ids the planner must plan around
    answer: str
    draft: str
    review: dict[str, Any]  # ReviewVerdict
    revisions: int
    status: str
    human_reply: str | None
    trace: Annotated[list[str], operator.add]


class TaskInput(TypedDict):
    """What `dispatch` sends to a role node for one task."""

    task: dict[str, Any]
    user_id: str
    audit_id: str
    grant: dict[str, Any] | None
    results: dict[str, Any]
    attempt: int


def plan_of(state: SupportState) -> Plan:
    """The thread's current plan as a contract (empty before planning)."""
    return Plan.model_validate(state.get("plan") or {})
